/**
 * Whether a workflow's current build can be reused, without building anything: the one reuse rule that `list`
 * shows and that `build` and `run` apply before doing any step. A build is fresh when its own inputs are
 * unchanged (build-inputs.ts) and every child workflow it references is fresh too (a stale child may change the
 * wrapper the parent compiles against).
 */
import {type DiscoveryRoot, readWorkflowFolder, type WorkflowHandle} from '../discovery/index.ts';
import {hasErrors} from '../errors/index.ts';
import {type BuildReuse, checkOwnInputs} from './build-inputs.ts';
import {type BuildRecord, readBuildRecord} from './build-record.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

/** A {@link BuildReuse} state, or `invalid` for a workflow whose manifest has errors. */
export type BuildFreshness = BuildReuse | 'invalid';

export async function checkBuildFreshness(handle: WorkflowHandle): Promise<BuildFreshness> {
  if (handle.manifest === undefined || hasErrors(handle.diagnostics)) return 'invalid';
  return (await checkReuse(handle)).state;
}

export interface ReuseCheck {
  state: BuildReuse;
  /** The record the check read (reusable when `state` is `fresh`). */
  record: BuildRecord | undefined;
}

/** The reuse rule for a valid workflow: its own inputs, then its children, each by the same rule. */
export async function checkReuse(
  handle: WorkflowHandle,
  active: readonly string[] = [],
): Promise<ReuseCheck> {
  const paths = resolveWorkflowPaths(handle);
  const record = await readBuildRecord(paths.buildRecord);
  if (handle.manifest === undefined) return {state: 'absent', record};
  const own = await checkOwnInputs(paths, handle.manifest, record).catch(() => 'stale' as const);
  if (own !== 'fresh' || record === undefined) return {state: own, record};
  const chain = [...active, handle.directory];
  for (const child of record.inputs.children) {
    if (chain.includes(child.directory)) return {state: 'stale', record};
    const found = await readChild(child.directory, handle.root);
    if (found === undefined || found.name !== child.name || hasErrors(found.diagnostics))
      return {state: 'stale', record};
    if ((await checkReuse(found, chain)).state !== 'fresh') return {state: 'stale', record};
  }
  return {state: 'fresh', record};
}

function readChild(directory: string, root: DiscoveryRoot): Promise<WorkflowHandle | undefined> {
  return readWorkflowFolder(directory, root).catch(() => undefined);
}
