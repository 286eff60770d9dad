/**
 * Reads every recorded run under `<home>/runs/`, classifies it and removes what retention selects. The reads and
 * removals are synchronous: a run trims its workspace on its way out, and a dozen small run.json files read in
 * one go cost a fraction of what the promise API's thread-pool round trips do (internal/json-file.ts).
 */
import {readdirSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {isNotFound, isRecord} from '../../internal/json-file.ts';
import {isProcessAlive} from '../../internal/process-alive.ts';
import {runsDirectory} from '../artifacts/run-folders.ts';
import {RUN_FILE} from '../artifacts/run-record.ts';
import {type RecordedRun, type RetentionLimits, selectRemovals} from './select-removals.ts';

export interface RetentionResult {
  removed: string[];
  failures: {path: string; error: unknown}[];
}

export async function applyRetention(home: string, limits: RetentionLimits): Promise<RetentionResult> {
  return removeRuns(home, selectRemovals(await readRecordedRuns(home), limits));
}

/**
 * Applies the per-workspace limit to one workspace, reading only its runs. The same removals as `applyRetention`
 * when no other workspace is over its limit and the total is not exceeded (`planRetention` checks both).
 */
export async function applyWorkspaceRetention(
  home: string,
  workspace: string,
  limits: RetentionLimits,
): Promise<RetentionResult> {
  const runs = readWorkspaceRuns(home, workspace);
  return removeRuns(
    home,
    selectRemovals(runs, {perWorkspace: limits.perWorkspace, total: Number.POSITIVE_INFINITY}),
  );
}

async function removeRuns(home: string, removals: readonly RecordedRun[]): Promise<RetentionResult> {
  const result: RetentionResult = {removed: [], failures: []};
  for (const run of removals) {
    const path = join(runsDirectory(home), run.workspace, run.runId);
    try {
      rmSync(path, {recursive: true, force: true});
      result.removed.push(path);
    } catch (error) {
      result.failures.push({path, error});
    }
  }
  return result;
}

export async function readRecordedRuns(home: string): Promise<RecordedRun[]> {
  const runs: RecordedRun[] = [];
  for (const workspace of listFolders(runsDirectory(home))) runs.push(...readWorkspaceRuns(home, workspace));
  return runs;
}

function readWorkspaceRuns(home: string, workspace: string): RecordedRun[] {
  const folder = join(runsDirectory(home), workspace);
  return listFolders(folder).map((runId) => ({workspace, runId, state: readState(join(folder, runId))}));
}

function readState(folder: string): RecordedRun['state'] {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(join(folder, RUN_FILE), 'utf8'));
  } catch {
    return 'unknown';
  }
  if (!isRecord(record) || typeof record.status !== 'string') return 'unknown';
  if (record.status !== 'running') return 'completed';
  // A running record whose process is gone is a crashed run: completed, as far as retention is concerned.
  return typeof record.pid === 'number' && isProcessAlive(record.pid) ? 'active' : 'completed';
}

function listFolders(path: string): string[] {
  try {
    return readdirSync(path, {withFileTypes: true})
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}
