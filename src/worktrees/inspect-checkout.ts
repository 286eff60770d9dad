/**
 * What removing a checkout would lose. Every check runs real git in the checkout; a check that fails is itself a
 * finding (`unverified`), so a git error can never look like "nothing to lose". Untracked files count as work
 * (`--untracked-files=all`); ignored files do not, as for `git worktree remove`.
 */
import {gitComplaint, runGit} from './run-git.ts';

export type CheckoutFinding =
  | {kind: 'changes'; staged: string[]; unstaged: string[]; untracked: string[]; unmerged: string[]}
  | {kind: 'commits'; commits: string[]}
  | {kind: 'stash'; entries: string[]}
  | {kind: 'unverified'; reason: string};

/** Findings for the checkout at `path` whose managed branch is `branch`; empty means safe to remove. */
export async function inspectCheckout(path: string, branch: string): Promise<CheckoutFinding[]> {
  const findings: CheckoutFinding[] = [];
  const status = await runGit(
    ['status', '--porcelain=v2', '-z', '--untracked-files=all', '--ignore-submodules=none'],
    path,
  );
  if (!status.ok) return [{kind: 'unverified', reason: `git status failed: ${gitComplaint(status)}`}];
  const changes = parseStatus(status.stdout);
  if (
    changes.staged.length + changes.unstaged.length + changes.untracked.length + changes.unmerged.length >
    0
  )
    findings.push({kind: 'changes', ...changes});

  const head = await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], path);
  if (!head.ok)
    return [...findings, {kind: 'unverified', reason: `git rev-parse HEAD failed: ${gitComplaint(head)}`}];
  // Commits reachable from HEAD that no branch, tag or remote-tracking ref holds (a detached HEAD's work).
  const loose = await runGit(
    ['rev-list', '--max-count=20', '--abbrev-commit', 'HEAD', '--not', '--branches', '--tags', '--remotes'],
    path,
  );
  if (!loose.ok)
    return [...findings, {kind: 'unverified', reason: `git rev-list failed: ${gitComplaint(loose)}`}];
  const commits = loose.stdout.split('\n').filter((line) => line !== '');
  if (commits.length > 0) findings.push({kind: 'commits', commits});

  // The stash is shared by all worktrees; entries made in this checkout name its branch or sit on its HEAD.
  const stash = await runGit(['stash', 'list', '--format=%gd%x09%P%x09%gs'], path);
  if (!stash.ok)
    return [...findings, {kind: 'unverified', reason: `git stash list failed: ${gitComplaint(stash)}`}];
  const headCommit = head.stdout.trim();
  const entries = stash.stdout
    .split('\n')
    .filter((line) => line !== '')
    .filter((line) => {
      const [, parents = '', subject = ''] = line.split('\t');
      const onBranch = subject.includes(`on ${branch}:`) || subject.includes(`On ${branch}:`);
      const detachedHere = subject.includes('(no branch)') && parents.split(' ')[0] === headCommit;
      return onBranch || detachedHere;
    })
    .map((line) => line.split('\t')[0]!);
  if (entries.length > 0) findings.push({kind: 'stash', entries});
  return findings;
}

function parseStatus(output: string): Omit<Extract<CheckoutFinding, {kind: 'changes'}>, 'kind'> {
  const staged: string[] = [];
  const unstaged: string[] = [];
  const untracked: string[] = [];
  const unmerged: string[] = [];
  const tokens = output.split('\0');
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token === '') continue;
    const type = token[0];
    if (type === '?') untracked.push(token.slice(2));
    else if (type === 'u') unmerged.push(token.split(' ').slice(10).join(' '));
    else if (type === '1' || type === '2') {
      const xy = token.slice(2, 4);
      const path = token
        .split(' ')
        .slice(type === '1' ? 8 : 9)
        .join(' ');
      if (xy[0] !== '.') staged.push(path);
      if (xy[1] !== '.') unstaged.push(path);
      // A rename or copy is followed by its original path.
      if (type === '2') index += 1;
    }
  }
  return {staged, unstaged, untracked, unmerged};
}
