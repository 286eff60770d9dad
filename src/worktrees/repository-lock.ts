/**
 * Git's own worktree administration (`git worktree add`, `remove`, `list`) is not safe to run concurrently in one
 * repository: one command reads the administrative folder another is still writing. Stratos therefore runs those
 * commands one at a time per repository, under the same kind of OS lock as the bookkeeping (never stolen), always
 * as the innermost lock and only for the one git command. Several agents of a run may create their worktrees at
 * once, and a `git worktree add` checks out every file, so a waiter here may wait up to 30 seconds (a queue of
 * git commands, not a holder that may hang); the five-second bound is the bookkeeping locks'.
 */
import {join} from 'node:path';
import {withWorktreeLock} from './worktree-lock.ts';
import {recordsDirectory} from './worktree-records.ts';

export const repositoryLockTimeoutMs = 30_000;

/** `_` cannot begin a worktree name, so this lock never shares a file with one worktree's lock. */
const fileName = '_repository.lock';

export function withRepositoryLock<T>(
  stratosHome: string,
  repository: string,
  fn: () => Promise<T>,
  timeoutMs?: number,
): Promise<T> {
  return withWorktreeLock(
    join(recordsDirectory(stratosHome, repository), fileName),
    {
      label: `the git worktree administration of ${repository}`,
      timeoutMs: timeoutMs ?? repositoryLockTimeoutMs,
    },
    fn,
  );
}
