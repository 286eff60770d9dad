/** Whether a workflow's current build can be reused, without building anything. */
import {existsSync} from 'node:fs';
import type {WorkflowHandle} from '../discovery/index.ts';
import {hasErrors} from '../errors/index.ts';
import {readBuildRecord} from './build-record.ts';
import {currentChildKeyInputs} from './child-preparation.ts';
import {computeBuildKey} from './freshness.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

/** `fresh`: reusable; `stale`: sources changed; `absent`: never built (or the last build failed); `invalid`: bad manifest. */
export type BuildFreshness = 'fresh' | 'stale' | 'absent' | 'invalid';

export async function checkBuildFreshness(handle: WorkflowHandle): Promise<BuildFreshness> {
  if (handle.manifest === undefined || hasErrors(handle.diagnostics)) return 'invalid';
  const paths = resolveWorkflowPaths(handle);
  const record = await readBuildRecord(paths.buildRecord);
  // A record copied along with its folder names the other folder's module: it is not this workflow's build.
  if (
    record === undefined ||
    record.compiledEntrypoint !== paths.compiledEntrypoint ||
    !existsSync(record.compiledEntrypoint)
  ) {
    return 'absent';
  }
  const key = await currentChildKeyInputs(paths)
    .then((extra) => computeBuildKey({directory: paths.directory, extra}))
    .catch(() => undefined);
  return key === record.key ? 'fresh' : 'stale';
}
