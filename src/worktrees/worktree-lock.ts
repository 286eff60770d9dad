/**
 * Short per-worktree OS locks for bookkeeping (design philosophy, "Preserve work before cleaning up worktrees").
 * The lock is an exclusive SQLite transaction on `<name>.lock`: SQLite takes an advisory lock of the operating
 * system on that file, which the kernel releases when the holder ends, crashes or is killed. So there is no stale
 * lock to judge and nothing is ever stolen: a waiter only retries, for at most five seconds, and then gives up.
 * Locks coordinate bookkeeping and git's own worktree administration, never agents' edits or network work.
 */
import {mkdir} from 'node:fs/promises';
import {dirname} from 'node:path';
import {StratosError} from '../errors/index.ts';

/** The longest wait for a worktree lock. */
export const worktreeLockTimeoutMs = 5000;

const retryMs = 50;
/** SQLITE_BUSY: another connection (in any process) holds the lock. */
const busy = 5;

export interface WorktreeLockOptions {
  /** What the lock protects, for the timeout message: `worktree 'swift-otter' of /repo`. */
  label: string;
  timeoutMs?: number | undefined;
}

/**
 * Runs `fn` holding the lock file `file`.
 * @throws StratosError STRATOS_WORKTREE_LOCK_TIMEOUT when another holder keeps it past the timeout.
 */
export async function withWorktreeLock<T>(
  file: string,
  options: WorktreeLockOptions,
  fn: () => Promise<T>,
): Promise<T> {
  // Loaded on first use: only runs with worktrees pay for SQLite.
  const {DatabaseSync} = await import('node:sqlite');
  await mkdir(dirname(file), {recursive: true});
  const database = new DatabaseSync(file, {timeout: 0});
  try {
    const timeoutMs = options.timeoutMs ?? worktreeLockTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        database.exec('BEGIN EXCLUSIVE');
        break;
      } catch (error) {
        if ((error as {errcode?: unknown}).errcode !== busy) throw error;
        if (Date.now() >= deadline) {
          throw new StratosError(
            'STRATOS_WORKTREE_LOCK_TIMEOUT',
            `The lock of ${options.label} (${file}) stayed held by another process for ${Math.round(timeoutMs / 1000)} seconds, so Stratos did not touch the worktree; it never takes a lock from its holder. Try again when the other run has ended.`,
            {details: {file}},
          );
        }
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
    try {
      return await fn();
    } finally {
      database.exec('ROLLBACK');
    }
  } finally {
    database.close();
  }
}
