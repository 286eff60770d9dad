/** What `run`, `describe` and `schema` call: reuse a fresh build, build an absent or stale one, stop on failure. */
import type {WorkflowHandle} from '../discovery/index.ts';
import {BuildError} from '../errors/index.ts';
import type {BuildRecord} from './build-record.ts';
import {readBuildRecord} from './build-record.ts';
import {type BuildWorkflowOptions, buildWorkflow, type WorkflowBuildResult} from './build-workflow.ts';
import {checkBuildFreshness} from './freshness-status.ts';
import {ensureSharedSdk} from './shared-sdk.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

export interface PreparedWorkflow {
  record: BuildRecord;
  /** Set when preparation had to build; its warnings belong in the command's output. */
  build?: WorkflowBuildResult;
}

export async function prepareWorkflow(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions = {},
): Promise<PreparedWorkflow> {
  const paths = resolveWorkflowPaths(handle);
  if ((await checkBuildFreshness(handle)) === 'fresh') {
    const record = await readBuildRecord(paths.buildRecord);
    if (record !== undefined) {
      // The link must point at this CLI even when the build is reused: a moved CLI means another SDK instance.
      await ensureSharedSdk(paths.root);
      return {record};
    }
  }
  const build = await buildWorkflow(handle, options);
  if (build.status === 'failed' || build.record === undefined)
    throw new BuildError(handle.name, build.diagnostics);
  return {record: build.record, build};
}
