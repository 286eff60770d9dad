/**
 * Worktree names: the author's own (validated), or a fresh `<adjective>-<noun>` from the two shipped word lists,
 * checked against the paths, branches and records that already exist.
 */
import {randomInt} from 'node:crypto';
import {StratosError} from '../errors/index.ts';
import {adjectives, nouns} from './word-lists.ts';

const namePattern = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;

/** The branch of a managed worktree. */
export function branchOf(name: string): string {
  return `stratos/${name}`;
}

/**
 * Checks an author's worktree name: lowercase letters, digits and single `-`, `_` or `.` between them, at most
 * 64 characters, so it is one folder and one branch component everywhere.
 * @throws StratosError STRATOS_WORKTREE_NAME_INVALID
 */
export function validateWorktreeName(name: string, agent: string): void {
  if (name.length <= 64 && namePattern.test(name) && !name.endsWith('.lock')) return;
  throw new StratosError(
    'STRATOS_WORKTREE_NAME_INVALID',
    `Agent '${agent}' names the worktree ${JSON.stringify(name)}, which is not a usable worktree name. Use at most 64 lowercase letters and digits, with single '-', '_' or '.' between them (for example 'fix-login').`,
    {details: {agent, name}},
  );
}

/** A random `<adjective>-<noun>`. */
export function randomWorktreeName(random: (max: number) => number = randomInt): string {
  return `${adjectives[random(adjectives.length)]}-${nouns[random(nouns.length)]}`;
}

/**
 * A fresh name that `isTaken` rejects for none of its checks; after 64 taken draws a numeric suffix is added, so
 * a crowded repository still gets a name.
 */
export async function generateWorktreeName(
  isTaken: (name: string) => Promise<boolean>,
  random: (max: number) => number = randomInt,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const base = randomWorktreeName(random);
    const name = attempt < 64 ? base : `${base}-${random(1_000_000)}`;
    if (!(await isTaken(name))) return name;
  }
}
