/**
 * Which recorded runs local retention removes: per workspace only the latest `perWorkspace` completed runs stay,
 * and of those only the latest `total` overall. Active runs are never removed and do not count. A run folder
 * holds a top-level run together with all its descendant workflows, so they are kept or removed together.
 */

export interface RetentionLimits {
  perWorkspace: number;
  total: number;
}

export interface RecordedRun {
  workspace: string;
  /** The run folder name; it starts with the UTC start time, so names sort by start. */
  runId: string;
  /** `active`: running in a live process. `unknown`: no readable run.json (kept: it may be starting). */
  state: 'completed' | 'active' | 'unknown';
}

export function selectRemovals(runs: readonly RecordedRun[], limits: RetentionLimits): RecordedRun[] {
  const completed = runs
    .filter((run) => run.state === 'completed')
    .sort((a, b) => (a.runId < b.runId ? 1 : -1));
  const perWorkspace = new Map<string, number>();
  const survivors: RecordedRun[] = [];
  const removals: RecordedRun[] = [];
  for (const run of completed) {
    const count = perWorkspace.get(run.workspace) ?? 0;
    perWorkspace.set(run.workspace, count + 1);
    if (count < limits.perWorkspace) survivors.push(run);
    else removals.push(run);
  }
  removals.push(...survivors.slice(limits.total));
  return removals;
}
