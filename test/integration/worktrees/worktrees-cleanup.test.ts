// Cleaning up agent worktrees with the real git binary: every cleanup case and every data-loss case.
// In each keep case the checkout and its work must survive; in each remove case the branch must.
import assert from 'node:assert/strict';
import {readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {acquireWorktree, type WorktreeLease} from '../../../src/worktrees/acquire-worktree.ts';
import {type CleanupDecision, cleanUpWorktree} from '../../../src/worktrees/clean-up-worktree.ts';
import {reconcileWorktrees} from '../../../src/worktrees/reconcile-worktrees.ts';
import {lockFile, readRecord, recordsDirectory} from '../../../src/worktrees/worktree-records.ts';
import {createTempRepo, type TempRepo} from '../../helpers/git-repo.ts';
import {spawnReady} from '../../helpers/spawn-ready.ts';

const helper = fileURLToPath(new URL('../../helpers/worktree-process.ts', import.meta.url));
const repos: TempRepo[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
  for (const repo of repos.splice(0)) await repo.remove();
});

async function repo(): Promise<TempRepo> {
  const created = await createTempRepo({withOrigin: true});
  repos.push(created);
  return created;
}

const acquire = (r: TempRepo, name: string, extra: {runId?: string; cleanup?: boolean} = {}) =>
  acquireWorktree({
    stratosHome: r.home,
    directory: r.root,
    agent: 'coder',
    name,
    cleanup: extra.cleanup ?? true,
    runId: extra.runId ?? 'run-1',
  });

const release = (r: TempRepo, name: string, runId = 'run-1') =>
  cleanUpWorktree({stratosHome: r.home, repository: r.root, name, runId});

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function assertKept(decision: CleanupDecision, code: string, pattern: RegExp): void {
  assert.equal(decision.action, 'kept', decision.message);
  assert.equal(decision.diagnostic?.code, code);
  assert.equal(decision.diagnostic?.severity, 'warning');
  assert.match(decision.message, pattern);
  assert.equal(decision.diagnostic?.message, decision.message);
}

async function assertRemovedKeepingBranch(r: TempRepo, lease: WorktreeLease, decision: CleanupDecision) {
  assert.equal(decision.action, 'removed', decision.message);
  assert.equal(decision.reason, 'clean');
  assert.equal(decision.diagnostic, undefined);
  assert.equal(await exists(lease.path), false);
  assert.doesNotMatch(r.git(['worktree', 'list', '--porcelain']), new RegExp(lease.name));
  assert.equal(r.git(['branch', '--list', lease.branch]).trim(), lease.branch);
  assert.equal(await readRecord(recordsDirectory(r.home, r.root), lease.name), undefined);
}

test('a clean checkout is removed and its branch is kept', async () => {
  const r = await repo();
  const lease = await acquire(r, 'clean');
  await assertRemovedKeepingBranch(r, lease, await release(r, 'clean'));
});

test('staged changes keep the checkout with a diagnostic naming it and the files', async () => {
  const r = await repo();
  const lease = await acquire(r, 'staged');
  await writeFile(join(lease.path, 'new.txt'), 'staged work\n');
  r.git(['add', 'new.txt'], lease.path);
  assertKept(
    await release(r, 'staged'),
    'STRATOS_WORKTREE_KEPT_CHANGES',
    /Worktree 'staged' at .*staged changes \(new\.txt\)/,
  );
  assert.equal(await readFile(join(lease.path, 'new.txt'), 'utf8'), 'staged work\n');
  assert.equal(r.git(['diff', '--cached', '--name-only'], lease.path).trim(), 'new.txt');
});

test('unstaged changes keep the checkout', async () => {
  const r = await repo();
  const lease = await acquire(r, 'unstaged');
  await writeFile(join(lease.path, 'README.md'), '# changed\n');
  assertKept(
    await release(r, 'unstaged'),
    'STRATOS_WORKTREE_KEPT_CHANGES',
    /unstaged changes \(README\.md\)/,
  );
  assert.equal(await readFile(join(lease.path, 'README.md'), 'utf8'), '# changed\n');
});

test('untracked files keep the checkout (the `git status -uno` bug)', async () => {
  const r = await repo();
  const lease = await acquire(r, 'untracked');
  await writeFile(join(lease.path, 'deep.txt'), 'only here\n');
  const {mkdir} = await import('node:fs/promises');
  await mkdir(join(lease.path, 'a', 'b'), {recursive: true});
  await writeFile(join(lease.path, 'a', 'b', 'nested.txt'), 'nested\n');
  assertKept(
    await release(r, 'untracked'),
    'STRATOS_WORKTREE_KEPT_CHANGES',
    /untracked changes \(a\/b\/nested\.txt, deep\.txt\)/,
  );
  assert.equal(await readFile(join(lease.path, 'a', 'b', 'nested.txt'), 'utf8'), 'nested\n');
});

test('ignored files alone do not keep a checkout, as for git worktree remove', async () => {
  const r = await repo();
  await r.commit('.gitignore', 'build/\n', 'ignore build', join(r.base, 'upstream'));
  r.git(['fetch', '-q']);
  const lease = await acquire(r, 'ignored');
  const {mkdir} = await import('node:fs/promises');
  await mkdir(join(lease.path, 'build'));
  await writeFile(join(lease.path, 'build', 'out.js'), 'generated\n');
  await assertRemovedKeepingBranch(r, lease, await release(r, 'ignored'));
});

test('committed work on a clean checkout: the checkout goes, the branch keeps the commits', async () => {
  const r = await repo();
  const lease = await acquire(r, 'committed');
  const commit = await r.commit('feature.txt', 'done\n', 'feature', lease.path);
  await assertRemovedKeepingBranch(r, lease, await release(r, 'committed'));
  assert.equal(r.git(['rev-parse', lease.branch]).trim(), commit);
});

test('a resumed named worktree never takes committed work for "no changes" (the baseline bug)', async () => {
  const r = await repo();
  const first = await acquire(r, 'resumed', {runId: 'run-1'});
  const commit = await r.commit('earlier.txt', 'earlier work\n', 'earlier', first.path);
  await assertRemovedKeepingBranch(r, first, await release(r, 'resumed', 'run-1'));
  // The second run recreates the checkout from the branch and changes nothing: its HEAD equals where it began.
  const second = await acquire(r, 'resumed', {runId: 'run-2'});
  assert.equal(second.origin, 'recreated');
  await assertRemovedKeepingBranch(r, second, await release(r, 'resumed', 'run-2'));
  assert.equal(r.git(['rev-parse', 'stratos/resumed']).trim(), commit);
  assert.equal(r.git(['show', 'stratos/resumed:earlier.txt']), 'earlier work\n');
});

test('a clean-looking detached HEAD with commits no ref contains is kept (the detached-HEAD bug)', async () => {
  const r = await repo();
  const lease = await acquire(r, 'detached');
  r.git(['checkout', '-q', '--detach'], lease.path);
  const commit = await r.commit('orphan.txt', 'only on a detached HEAD\n', 'orphan', lease.path);
  assert.equal(r.git(['status', '--porcelain'], lease.path).trim(), '');
  const decision = await release(r, 'detached');
  assertKept(
    decision,
    'STRATOS_WORKTREE_KEPT_COMMITS',
    new RegExp(`commits that no branch, tag or remote contains \\(${commit.slice(0, 7)}`),
  );
  assert.equal(r.git(['rev-parse', 'HEAD'], lease.path).trim(), commit);
});

test('a detached HEAD on a commit a branch contains is clean and removed', async () => {
  const r = await repo();
  const lease = await acquire(r, 'detached-known');
  r.git(['checkout', '-q', '--detach'], lease.path);
  await assertRemovedKeepingBranch(r, lease, await release(r, 'detached-known'));
});

test('a stash made in the checkout keeps it (the stash bug)', async () => {
  const r = await repo();
  const lease = await acquire(r, 'stashed');
  await writeFile(join(lease.path, 'README.md'), '# stashed edit\n');
  r.git(['stash', 'push', '-q', '-m', 'agent work'], lease.path);
  assert.equal(r.git(['status', '--porcelain'], lease.path).trim(), '');
  assertKept(
    await release(r, 'stashed'),
    'STRATOS_WORKTREE_KEPT_STASH',
    /a stash made in it \(stash@\{0\}\)/,
  );
  assert.equal(await exists(lease.path), true);
  assert.match(r.git(['stash', 'list']), /agent work/);
});

test('a stash of the main checkout does not pin a clean worktree', async () => {
  const r = await repo();
  const lease = await acquire(r, 'other-stash');
  await writeFile(join(r.root, 'README.md'), '# main edit\n');
  r.git(['stash', 'push', '-q']);
  await assertRemovedKeepingBranch(r, lease, await release(r, 'other-stash'));
});

test('a git step that fails during cleanup keeps the checkout and is never followed by a forced removal', async () => {
  const r = await repo();
  const lease = await acquire(r, 'broken');
  await writeFile(join(lease.path, 'work.txt'), 'unsaved work\n');
  // Corrupt the checkout's index: every `git status` in it now fails.
  const gitDir = r.git(['rev-parse', '--absolute-git-dir'], lease.path).trim();
  await writeFile(join(gitDir, 'index'), 'not an index');
  const decision = await release(r, 'broken');
  assertKept(
    decision,
    'STRATOS_WORKTREE_KEPT_UNVERIFIED',
    /'broken' .*safe cleanup could not be established: .*git status failed/,
  );
  assert.equal(await readFile(join(lease.path, 'work.txt'), 'utf8'), 'unsaved work\n');
  assert.match(r.git(['worktree', 'list', '--porcelain']), new RegExp(`worktree ${lease.path}`));
});

test('a checkout locked with git worktree lock is kept', async () => {
  const r = await repo();
  const lease = await acquire(r, 'git-locked');
  r.git(['worktree', 'lock', '--reason', 'on a USB disk', lease.path]);
  assertKept(
    await release(r, 'git-locked'),
    'STRATOS_WORKTREE_KEPT_UNVERIFIED',
    /locked with 'git worktree lock' \(on a USB disk\)/,
  );
  assert.equal(await exists(lease.path), true);
});

test('cleanup: false protects the checkout; a later run without it cannot revoke that', async () => {
  const r = await repo();
  const lease = await acquire(r, 'keep-me', {runId: 'run-1', cleanup: false});
  const first = await release(r, 'keep-me', 'run-1');
  assert.equal(first.action, 'kept');
  assert.equal(first.reason, 'protected');
  assert.equal(first.diagnostic, undefined);
  await acquire(r, 'keep-me', {runId: 'run-2', cleanup: true});
  const second = await release(r, 'keep-me', 'run-2');
  assert.equal(second.action, 'kept');
  assert.equal(second.reason, 'protected');
  assert.equal(await exists(lease.path), true);
  const record = await readRecord(recordsDirectory(r.home, r.root), 'keep-me');
  assert.equal(record?.protected, true);
  assert.equal(record?.protectedBy?.runId, 'run-1');
  assert.deepEqual(record?.users, []);
});

test('a protection ends only when the author removes the protected checkout', async () => {
  const r = await repo();
  const lease = await acquire(r, 'protected-once', {runId: 'run-1', cleanup: false});
  assert.equal((await release(r, 'protected-once', 'run-1')).reason, 'protected');
  // The author removes the checkout; the record is dropped when Stratos next looks at it...
  r.git(['worktree', 'remove', lease.path]);
  const again = await acquire(r, 'protected-once', {runId: 'run-2'});
  assert.equal(again.origin, 'recreated');
  // ...so the recreated checkout is an ordinary one, removed when clean.
  await assertRemovedKeepingBranch(r, again, await release(r, 'protected-once', 'run-2'));
});

test('a protected checkout that the author removed is forgotten at release, its branch kept', async () => {
  const r = await repo();
  const lease = await acquire(r, 'gone', {runId: 'run-1', cleanup: false});
  r.git(['worktree', 'remove', lease.path]);
  const decision = await release(r, 'gone', 'run-1');
  assert.equal(decision.reason, 'missing');
  assert.equal(await readRecord(recordsDirectory(r.home, r.root), 'gone'), undefined);
  assert.equal(r.git(['branch', '--list', 'stratos/gone']).trim(), 'stratos/gone');
});

test('a checkout shared by two concurrent runs is removed only after both released it', async () => {
  const r = await repo();
  const lease = await acquire(r, 'shared', {runId: 'run-a'});
  await acquire(r, 'shared', {runId: 'run-b'});
  const first = await release(r, 'shared', 'run-a');
  assert.equal(first.action, 'skipped');
  assert.equal(first.reason, 'in-use');
  assert.match(first.message, /still used by run-b/);
  assert.equal(await exists(lease.path), true);
  await assertRemovedKeepingBranch(r, lease, await release(r, 'shared', 'run-b'));
});

test('a live run of another process keeps its checkout against sweeps and releases; after SIGKILL it is reconciled', async () => {
  const r = await repo();
  const other = await spawnReady(helper, ['acquire', r.home, r.root, 'crashy', 'run-other']);
  cleanups.push(async () => {
    other.child.kill('SIGKILL');
    await other.exited;
  });
  const path = String(other.ready.path);
  // The stale-cleanup-sweep bug: another run's sweep must not touch a checkout a live run registered.
  assert.deepEqual(await reconcileWorktrees({stratosHome: r.home, repository: r.root}), []);
  await acquire(r, 'crashy', {runId: 'run-mine'});
  const mine = await release(r, 'crashy', 'run-mine');
  assert.equal(mine.action, 'skipped');
  assert.match(mine.message, /run-other/);
  assert.equal(await exists(path), true);

  other.child.kill('SIGKILL');
  await other.exited;
  // The next acquisition in the repository reconciles the dead registration by the usual rules (clean: removed).
  const next = await acquire(r, 'unrelated', {runId: 'run-next'});
  assert.equal(next.reconciled.length, 1);
  assert.equal(next.reconciled[0]?.name, 'crashy');
  assert.equal(next.reconciled[0]?.action, 'removed');
  assert.equal(await exists(path), false);
  assert.equal(r.git(['branch', '--list', 'stratos/crashy']).trim(), 'stratos/crashy');
});

test('a killed run whose checkout has work is reconciled into a kept checkout with its diagnostic', async () => {
  const r = await repo();
  const other = await spawnReady(helper, ['acquire', r.home, r.root, 'crash-dirty', 'run-other']);
  const path = String(other.ready.path);
  await writeFile(join(path, 'half-done.txt'), 'unsaved\n');
  other.child.kill('SIGKILL');
  await other.exited;
  const decisions = await reconcileWorktrees({stratosHome: r.home, repository: r.root});
  assert.equal(decisions.length, 1);
  assertKept(decisions[0]!, 'STRATOS_WORKTREE_KEPT_CHANGES', /untracked changes \(half-done\.txt\)/);
  assert.equal(await readFile(join(path, 'half-done.txt'), 'utf8'), 'unsaved\n');
  // Released once: a later sweep leaves the kept checkout alone instead of reporting it again.
  assert.deepEqual(await reconcileWorktrees({stratosHome: r.home, repository: r.root}), []);
});

test('a lock held by another process past five seconds is never stolen: the checkout is kept', async () => {
  const r = await repo();
  const lease = await acquire(r, 'held');
  const lock = lockFile(recordsDirectory(r.home, r.root), 'held');
  const holder = await spawnReady(helper, ['lock', lock]);
  cleanups.push(async () => {
    holder.child.kill('SIGKILL');
    await holder.exited;
  });
  const started = Date.now();
  const decision = await release(r, 'held');
  const waited = Date.now() - started;
  assertKept(
    decision,
    'STRATOS_WORKTREE_KEPT_UNVERIFIED',
    /lock of worktree 'held'.*stayed held by another process for 5 seconds/,
  );
  assert.ok(waited >= 4900, `gave up after ${waited} ms`);
  assert.equal(await exists(lease.path), true);
  assert.equal(holder.child.exitCode, null, 'the holder keeps running with its lock');
  // The registration stays, so the checkout is still known as used by this run...
  const record = await readRecord(recordsDirectory(r.home, r.root), 'held');
  assert.deepEqual(
    record?.users.map((user) => user.runId),
    ['run-1'],
  );
  // ...and once the holder ends, the OS releases its lock and the release goes through.
  holder.child.kill('SIGKILL');
  await holder.exited;
  await assertRemovedKeepingBranch(r, lease, await release(r, 'held'));
});
