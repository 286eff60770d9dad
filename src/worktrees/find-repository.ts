/**
 * The repository an agent's worktree belongs to: the main working tree of the repository that contains the
 * agent's directory (also when that directory is itself inside a linked worktree).
 */
import {realpath} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {gitComplaint, runGit} from './run-git.ts';

export interface Repository {
  /** The main working tree (realpath). */
  root: string;
  /** Where managed checkouts live: `<root>/.stratos/worktrees`. */
  worktreesDir: string;
}

/**
 * Finds the repository of `directory`.
 * @throws StratosError STRATOS_WORKTREE_NOT_A_REPOSITORY outside a Git work tree, or for a bare repository.
 */
export async function findRepository(directory: string, agent: string): Promise<Repository> {
  const found = await runGit(
    ['rev-parse', '--is-inside-work-tree', '--path-format=absolute', '--git-common-dir'],
    directory,
  );
  const [inside, commonDir] = found.stdout.trim().split('\n');
  let main =
    inside === 'true' && commonDir !== undefined && basename(commonDir) === '.git'
      ? dirname(commonDir)
      : undefined;
  let why = found.ok ? 'it is not inside a working tree' : gitComplaint(found);
  if (main === undefined && inside === 'true') {
    // A separate git directory: the first entry git lists is the main working tree (absent for a bare one).
    const list = await runGit(['worktree', 'list', '--porcelain', '-z'], directory);
    const first = list.ok ? list.stdout.split('\0\0')[0]?.split('\0') : undefined;
    if (first?.[0]?.startsWith('worktree ') && !first.includes('bare'))
      main = first[0].slice('worktree '.length);
    else why = list.ok ? 'its repository has no main working tree' : gitComplaint(list);
  }
  if (main === undefined) {
    throw new StratosError(
      'STRATOS_WORKTREE_NOT_A_REPOSITORY',
      `Agent '${agent}' asks for a worktree, but its directory ${directory} is not in a Git repository with a working tree (${why}). Run the workflow inside a Git repository, or remove the agent's worktree setting.`,
      {details: {agent, directory}},
    );
  }
  const root = await realpath(main);
  return {root, worktreesDir: join(root, '.stratos', 'worktrees')};
}
