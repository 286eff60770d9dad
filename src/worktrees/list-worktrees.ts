/** The worktrees git knows for a repository (`git worktree list --porcelain -z`), as data. */
import {realpath} from 'node:fs/promises';
import {StratosError} from '../errors/index.ts';
import {gitComplaint, runGit} from './run-git.ts';

export interface GitWorktree {
  path: string;
  head: string | undefined;
  /** `refs/heads/...`, absent when HEAD is detached. */
  branch: string | undefined;
  detached: boolean;
  /** `git worktree lock` reason ('' without one). */
  locked: string | undefined;
  /** The checkout's directory is gone; git still holds its administrative files. */
  prunable: boolean;
}

/** @throws StratosError STRATOS_WORKTREE_GIT_FAILED with git's complaint (callers decide what that means). */
export async function listWorktrees(repository: string): Promise<GitWorktree[]> {
  const result = await runGit(['worktree', 'list', '--porcelain', '-z'], repository);
  if (!result.ok)
    throw new StratosError(
      'STRATOS_WORKTREE_GIT_FAILED',
      `git worktree list failed in ${repository}: ${gitComplaint(result)} Check that git works in that repository ('git worktree list'), then run again.`,
      {details: {repository}},
    );
  const worktrees: GitWorktree[] = [];
  for (const block of result.stdout.split('\0\0')) {
    const fields = block.split('\0').filter((field) => field !== '');
    const first = fields[0];
    if (first === undefined || !first.startsWith('worktree ')) continue;
    const value = (key: string) => {
      const field = fields.find((f) => f === key || f.startsWith(`${key} `));
      return field === undefined ? undefined : field.slice(key.length + 1);
    };
    worktrees.push({
      path: first.slice('worktree '.length),
      head: value('HEAD'),
      branch: value('branch'),
      detached: fields.includes('detached'),
      locked: value('locked'),
      prunable: value('prunable') !== undefined,
    });
  }
  return worktrees;
}

/** The entry of `path` (compared after resolving symbolic links), if git knows it as a worktree. */
export async function findWorktree(repository: string, path: string): Promise<GitWorktree | undefined> {
  const wanted = await realpath(path).catch(() => path);
  for (const worktree of await listWorktrees(repository)) {
    const actual = await realpath(worktree.path).catch(() => worktree.path);
    if (actual === wanted) return worktree;
  }
  return undefined;
}

/** Wraps a git failure of worktree creation as the error authors see. */
export function createFailure(message: string, details: Record<string, unknown>): StratosError {
  return new StratosError('STRATOS_WORKTREE_CREATE_FAILED', message, {details});
}
