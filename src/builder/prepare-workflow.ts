/**
 * What `run`, `describe`, `schema` and child invocations call: reuse a fresh build, build an absent or stale one
 * (children first), stop on failure. An old artifact never stands in for a failed build.
 */
import type {WorkflowHandle} from '../discovery/index.ts';
import {BuildError} from '../errors/index.ts';
import type {BuildRecord} from './build-record.ts';
import {type BuildWorkflowOptions, buildWorkflow, type WorkflowBuildResult} from './build-workflow.ts';

export interface PreparedWorkflow {
  record: BuildRecord;
  /** The build that prepared it (status `reused` when nothing changed); its warnings belong in the output. */
  build: WorkflowBuildResult;
}

export async function prepareWorkflow(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions = {},
): Promise<PreparedWorkflow> {
  const build = await buildWorkflow(handle, {...options, explicit: false});
  if (build.status === 'failed' || build.record === undefined)
    throw new BuildError(handle.name, build.diagnostics);
  return {record: build.record, build};
}
