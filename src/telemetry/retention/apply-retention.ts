/** Reads every recorded run under `<home>/runs/`, classifies it and removes what retention selects. */
import {readdir, readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {isNotFound, isRecord} from '../../internal/json-file.ts';
import {runsDirectory} from '../artifacts/run-folders.ts';
import {RUN_FILE} from '../artifacts/run-record.ts';
import {type RecordedRun, type RetentionLimits, selectRemovals} from './select-removals.ts';

export interface RetentionResult {
  removed: string[];
  failures: {path: string; error: unknown}[];
}

export async function applyRetention(home: string, limits: RetentionLimits): Promise<RetentionResult> {
  const runs = await readRecordedRuns(home);
  const result: RetentionResult = {removed: [], failures: []};
  for (const run of selectRemovals(runs, limits)) {
    const path = join(runsDirectory(home), run.workspace, run.runId);
    try {
      await rm(path, {recursive: true, force: true});
      result.removed.push(path);
    } catch (error) {
      result.failures.push({path, error});
    }
  }
  return result;
}

export async function readRecordedRuns(home: string): Promise<RecordedRun[]> {
  const runs: RecordedRun[] = [];
  for (const workspace of await listFolders(runsDirectory(home))) {
    for (const runId of await listFolders(join(runsDirectory(home), workspace))) {
      runs.push({workspace, runId, state: await readState(join(runsDirectory(home), workspace, runId))});
    }
  }
  return runs;
}

async function readState(folder: string): Promise<RecordedRun['state']> {
  let record: unknown;
  try {
    record = JSON.parse(await readFile(join(folder, RUN_FILE), 'utf8'));
  } catch {
    return 'unknown';
  }
  if (!isRecord(record) || typeof record.status !== 'string') return 'unknown';
  if (record.status !== 'running') return 'completed';
  // A running record whose process is gone is a crashed run: completed, as far as retention is concerned.
  return typeof record.pid === 'number' && isProcessAlive(record.pid) ? 'active' : 'completed';
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function listFolders(path: string): Promise<string[]> {
  try {
    return (await readdir(path, {withFileTypes: true})).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}
