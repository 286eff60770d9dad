/**
 * Which repository a queued run belongs to, in words every clone of it shares: the root commit of its history
 * (the same in every clone, whatever the folder), with the `origin` remote beside it for people to read. A worker
 * takes a run only when its own checkout has the same root commit.
 */
import {realpath} from 'node:fs/promises';
import {StratosError} from '../errors/index.ts';
import {gitComplaint, runGit} from '../worktrees/run-git.ts';

export interface RepositoryIdentity {
  /** The first root commit of `HEAD`'s history (sorted, for a history with several roots). */
  rootCommit: string;
  /** `origin`'s URL without any user name or password in it, when the checkout has one. */
  remote?: string;
}

export interface Checkout {
  /** The working tree's top folder (realpath). */
  root: string;
  identity: RepositoryIdentity;
}

/**
 * The checkout that holds `directory`, or undefined when `directory` is not in a Git working tree with a commit.
 * `why` says what is missing.
 */
export async function findCheckout(directory: string): Promise<Checkout | {why: string}> {
  const top = await runGit(['rev-parse', '--show-toplevel'], directory);
  if (!top.ok) return {why: gitComplaint(top)};
  const roots = await runGit(['rev-list', '--max-parents=0', 'HEAD'], directory);
  if (!roots.ok) return {why: `its repository has no commit yet (${gitComplaint(roots)})`};
  const rootCommit = roots.stdout
    .split('\n')
    .filter((line) => line !== '')
    .sort()[0];
  if (rootCommit === undefined) return {why: 'its repository has no commit yet'};
  const origin = await runGit(['remote', 'get-url', 'origin'], directory);
  const remote = origin.ok ? withoutCredentials(origin.stdout.trim()) : undefined;
  return {
    root: await realpath(top.stdout.trim()),
    identity: {rootCommit, ...(remote === undefined || remote === '' ? {} : {remote})},
  };
}

/**
 * The checkout of `directory`.
 * @throws StratosError STRATOS_QUEUE_NOT_IN_REPOSITORY outside a Git working tree with a commit.
 */
export async function requireCheckout(directory: string, purpose: string): Promise<Checkout> {
  const found = await findCheckout(directory);
  if ('root' in found) return found;
  throw new StratosError(
    'STRATOS_QUEUE_NOT_IN_REPOSITORY',
    `${purpose} needs a Git repository with at least one commit, but ${directory} is not in one (${found.why}). Run it inside a clone of the repository that holds the workflow, or run the workflow locally without --queue.`,
    {details: {directory}},
  );
}

/** `https://user:token@host/x.git` → `https://host/x.git`; scp-like `git@host:x.git` stays as written. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
