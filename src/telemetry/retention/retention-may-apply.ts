/**
 * A cheap check before starting the retention cleaner: counting run folders (one directory read per workspace)
 * tells whether any limit can be exceeded. Under the limits nothing can be removed, so no process is started.
 * Active and unreadable runs are counted too: the cleaner decides precisely, this only rules it out.
 */
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {runsDirectory, WORKSPACE_FILE} from '../artifacts/run-folders.ts';
import type {RetentionLimits} from './select-removals.ts';

export async function retentionMayApply(home: string, limits: RetentionLimits): Promise<boolean> {
  const runs = runsDirectory(home);
  let workspaces: string[];
  try {
    workspaces = await readdir(runs);
  } catch {
    return false;
  }
  let total = 0;
  for (const workspace of workspaces) {
    const entries = await readdir(join(runs, workspace)).catch(() => [] as string[]);
    const count = entries.filter((entry) => entry !== WORKSPACE_FILE).length;
    if (count > limits.perWorkspace) return true;
    total += count;
    if (total > limits.total) return true;
  }
  return false;
}
