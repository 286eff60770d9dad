/**
 * How old runs are to be removed, from a cheap look before any run record is read: counting run folders (one
 * directory read per workspace) tells whether a limit can be exceeded and how. Under the limits nothing can be removed. When a single workspace is a
 * few runs over its own limit and the total is not exceeded (the steady state: each run adds one), the run's own
 * process removes them, which costs less than starting a process; anything larger goes to the detached cleaner.
 * Active and unreadable runs are counted too: the removal decides precisely, this only rules it out.
 */
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {runsDirectory, WORKSPACE_FILE} from '../artifacts/run-folders.ts';
import type {RetentionLimits} from './select-removals.ts';

/** How many runs over its limit one workspace may be for the removal to happen in the run's own process. */
export const IN_PROCESS_EXCESS = 3;

export type RetentionPlan = {kind: 'none'} | {kind: 'workspace'; workspace: string} | {kind: 'cleaner'};

export async function planRetention(home: string, limits: RetentionLimits): Promise<RetentionPlan> {
  const runs = runsDirectory(home);
  let workspaces: string[];
  try {
    // Synchronous: one directory read per workspace after every run (internal/json-file.ts).
    workspaces = readdirSync(runs);
  } catch {
    return {kind: 'none'};
  }
  let total = 0;
  const over: {workspace: string; excess: number}[] = [];
  for (const workspace of workspaces) {
    const entries = listEntries(join(runs, workspace));
    const count = entries.filter((entry) => entry !== WORKSPACE_FILE).length;
    if (count > limits.perWorkspace) over.push({workspace, excess: count - limits.perWorkspace});
    total += count;
  }
  if (total > limits.total) return {kind: 'cleaner'};
  if (over.length === 0) return {kind: 'none'};
  const [only] = over;
  return over.length === 1 && only!.excess <= IN_PROCESS_EXCESS
    ? {kind: 'workspace', workspace: only!.workspace}
    : {kind: 'cleaner'};
}

function listEntries(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
