/**
 * Bookkeeping of managed worktrees under `STRATOS_HOME/worktrees/<repo-key>/`: one `<name>.json` per checkout
 * (which runs use it, whether a `cleanup: false` request protects it) beside its `<name>.lock`. Records change
 * only under that lock. A registration names its process, so one left behind by a crashed run is recognised by
 * the process being gone on this host.
 */
import {readdir, rm} from 'node:fs/promises';
import {hostname} from 'node:os';
import {basename, join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {sha256Hex} from '../internal/hash.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';

/** One run using a checkout. */
export interface WorktreeUser {
  /** The top-level run's execution id. */
  runId: string;
  pid: number;
  host: string;
  since: string;
  /** The run's folder when the run can be resumed: if its process dies, the checkout is held for resume. */
  runDirectory?: string;
}

/** A checkout kept for an interrupted run that can still be resumed (`worktree-holds.ts`). */
export interface WorktreeHold {
  /** The interrupted run's folder; the hold lasts while its resume.json exists. */
  runDirectory: string;
  since: string;
}

export interface WorktreeRecord {
  schemaVersion: 1;
  repository: string;
  name: string;
  path: string;
  branch: string;
  /** Set by any `cleanup: false` request; no later request clears it. */
  protected: boolean;
  protectedBy?: {runId: string; agent: string; at: string};
  users: WorktreeUser[];
  /** Interrupted runs that can still be resumed and need this checkout. */
  holds?: WorktreeHold[];
  updatedAt: string;
}

/** The bookkeeping folder of one repository. */
export function recordsDirectory(stratosHome: string, repository: string): string {
  const key = `${basename(repository).replace(/[^A-Za-z0-9._-]/g, '_')}-${sha256Hex(repository).slice(0, 12)}`;
  return join(stratosHome, 'worktrees', key);
}

export function recordFile(directory: string, name: string): string {
  return join(directory, `${name}.json`);
}

export function lockFile(directory: string, name: string): string {
  return join(directory, `${name}.lock`);
}

/** The record of `name`, or undefined. A malformed record throws: nothing is decided on a guess. */
export async function readRecord(directory: string, name: string): Promise<WorktreeRecord | undefined> {
  const value = await readJsonFile(recordFile(directory, name));
  if (value === undefined) return undefined;
  if (!isRecord(value) || value.schemaVersion !== 1 || !Array.isArray(value.users)) {
    throw new StratosError(
      'STRATOS_WORKTREE_RECORD_INVALID',
      `${recordFile(directory, name)} is not a version 1 worktree record; Stratos decides nothing about worktree '${name}' on a guess and left it as it is. Remove the record file if no run uses the worktree, then run again.`,
      {details: {file: recordFile(directory, name), worktree: name}},
    );
  }
  return value as unknown as WorktreeRecord;
}

export async function writeRecord(directory: string, record: WorktreeRecord): Promise<void> {
  await writeFileAtomic(
    recordFile(directory, record.name),
    `${JSON.stringify({...record, updatedAt: new Date().toISOString()}, null, 2)}\n`,
  );
}

export async function removeRecord(directory: string, name: string): Promise<void> {
  await rm(recordFile(directory, name), {force: true});
}

/** Names that have a record in `directory`. */
export async function listRecordNames(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory))
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -5));
  } catch {
    return [];
  }
}

/** This process as a user of a checkout. */
export function currentUser(runId: string, runDirectory?: string): WorktreeUser {
  return {
    runId,
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...(runDirectory === undefined ? {} : {runDirectory}),
  };
}

/**
 * False only when the registration's process is certainly gone: same host and no such process. A user on
 * another host, or a pid that was reused, counts as alive, which keeps the checkout: the safe direction.
 */
export function isUserAlive(user: WorktreeUser): boolean {
  if (user.host !== hostname()) return true;
  try {
    process.kill(user.pid, 0);
    return true;
  } catch (error) {
    return (error as {code?: unknown}).code !== 'ESRCH';
  }
}
