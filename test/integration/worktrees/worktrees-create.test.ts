// Creating and reusing agent worktrees with the real git binary: every creation case.
import assert from 'node:assert/strict';
import {mkdir, mkdtemp, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, test} from 'node:test';
import {StratosError} from '../../../src/errors/index.ts';
import {acquireWorktree} from '../../../src/worktrees/acquire-worktree.ts';
import {cleanUpWorktree} from '../../../src/worktrees/clean-up-worktree.ts';
import {adjectives, nouns} from '../../../src/worktrees/word-lists.ts';
import {readRecord, recordsDirectory} from '../../../src/worktrees/worktree-records.ts';
import {createTempRepo, isolateGit, type TempRepo} from '../../helpers/git-repo.ts';

const repos: TempRepo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.remove();
});

async function repo(options: {withOrigin?: boolean} = {}): Promise<TempRepo> {
  const created = await createTempRepo(options);
  repos.push(created);
  return created;
}

const acquire = (
  r: TempRepo,
  extra: {name?: string; cleanup?: boolean; runId?: string; directory?: string} = {},
) =>
  acquireWorktree({
    stratosHome: r.home,
    directory: extra.directory ?? r.root,
    agent: 'coder',
    name: extra.name,
    cleanup: extra.cleanup ?? true,
    runId: extra.runId ?? 'run-1',
  });

function isCode(code: string) {
  return (error: unknown) => error instanceof StratosError && error.code === code;
}

test('an unnamed worktree gets a fresh adjective-noun name and starts from origin HEAD without local work', async () => {
  const r = await repo({withOrigin: true});
  const originHead = r.git(['rev-parse', 'refs/remotes/origin/HEAD']).trim();
  // Local work that must not reach the new branch: an unpushed commit and an uncommitted edit.
  await r.commit('local.txt', 'local only\n', 'local commit');
  await r.write('README.md', '# edited, not committed\n');
  const lease = await acquire(r);
  const [adjective, noun] = lease.name.split('-');
  assert.ok(adjectives.includes(adjective!) && nouns.includes(noun!), lease.name);
  assert.equal(lease.origin, 'created');
  assert.equal(lease.path, join(r.root, '.stratos', 'worktrees', lease.name));
  assert.equal(lease.directory, lease.path);
  assert.equal(lease.branch, `stratos/${lease.name}`);
  assert.deepEqual(lease.base, {ref: 'refs/remotes/origin/HEAD', commit: originHead});
  assert.deepEqual(lease.diagnostics, []);
  assert.equal(r.git(['rev-parse', 'HEAD'], lease.path).trim(), originHead);
  assert.equal(r.git(['branch', '--show-current'], lease.path).trim(), lease.branch);
  assert.equal(await readFile(join(lease.path, 'README.md'), 'utf8'), '# test\n');
  await assert.rejects(stat(join(lease.path, 'local.txt')));
  // The main checkout sees only its own edit: the managed folder ignores itself.
  assert.equal(r.git(['status', '--porcelain', '--untracked-files=all']).trim(), 'M README.md');
  const record = await readRecord(recordsDirectory(r.home, r.root), lease.name);
  assert.equal(record?.users.length, 1);
  assert.equal(record?.users[0]?.runId, 'run-1');
  assert.equal(record?.users[0]?.pid, process.pid);
  assert.equal(record?.protected, false);
});

test('concurrent unnamed acquisitions get distinct names and checkouts', async () => {
  const r = await repo();
  const leases = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => acquire(r, {runId: `run-${i}`})));
  assert.equal(new Set(leases.map((lease) => lease.name)).size, 8);
  const listed = r.git(['worktree', 'list', '--porcelain']);
  for (const lease of leases) assert.ok(listed.includes(`worktree ${lease.path}\n`), lease.path);
});

test('without refs/remotes/origin/HEAD a new branch starts from local HEAD, with a warning', async () => {
  const r = await repo();
  const head = await r.commit('second.txt', 'two\n', 'second');
  const lease = await acquire(r, {name: 'local-base'});
  assert.equal(lease.origin, 'created');
  assert.deepEqual(lease.base, {ref: 'HEAD', commit: head});
  assert.equal(lease.diagnostics.length, 1);
  assert.equal(lease.diagnostics[0]?.code, 'STRATOS_WORKTREE_BASE_LOCAL_HEAD');
  assert.match(lease.diagnostics[0]!.message, /local-base.*local HEAD.*git remote set-head origin --auto/);
  assert.equal(r.git(['rev-parse', 'HEAD'], lease.path).trim(), head);
});

test('a named worktree that exists is reused unchanged, uncommitted work included', async () => {
  const r = await repo({withOrigin: true});
  const first = await acquire(r, {name: 'feature'});
  assert.equal(first.origin, 'created');
  await writeFile(join(first.path, 'draft.txt'), 'work in progress\n');
  await r.commit('note.txt', 'committed in the worktree\n', 'worktree commit', first.path);
  const head = r.git(['rev-parse', 'HEAD'], first.path).trim();
  const second = await acquire(r, {name: 'feature', runId: 'run-2'});
  assert.equal(second.origin, 'reused');
  assert.equal(second.path, first.path);
  assert.equal(r.git(['rev-parse', 'HEAD'], second.path).trim(), head);
  assert.equal(await readFile(join(second.path, 'draft.txt'), 'utf8'), 'work in progress\n');
  const record = await readRecord(recordsDirectory(r.home, r.root), 'feature');
  assert.deepEqual(
    record?.users.map((user) => user.runId),
    ['run-1', 'run-2'],
  );
});

test('a named worktree whose checkout was removed is recreated from its retained branch', async () => {
  const r = await repo({withOrigin: true});
  const first = await acquire(r, {name: 'resume'});
  const commit = await r.commit('progress.txt', 'step 1\n', 'step 1', first.path);
  const cleanup = await cleanUpWorktree({
    stratosHome: r.home,
    repository: r.root,
    name: 'resume',
    runId: 'run-1',
  });
  assert.equal(cleanup.action, 'removed');
  await assert.rejects(stat(first.path));
  const again = await acquire(r, {name: 'resume', runId: 'run-2'});
  assert.equal(again.origin, 'recreated');
  assert.equal(again.base, undefined);
  assert.equal(r.git(['rev-parse', 'HEAD'], again.path).trim(), commit);
  assert.equal(await readFile(join(again.path, 'progress.txt'), 'utf8'), 'step 1\n');
});

test('a directory in the way that is not a worktree is left untouched and reported', async () => {
  const r = await repo();
  const blocker = join(r.root, '.stratos', 'worktrees', 'taken');
  await mkdir(blocker, {recursive: true});
  await writeFile(join(blocker, 'precious.txt'), 'mine\n');
  await assert.rejects(acquire(r, {name: 'taken'}), (error: unknown) => {
    assert.ok(isCode('STRATOS_WORKTREE_PATH_CONFLICT')(error));
    assert.match((error as Error).message, /taken.*is not a worktree.*left it untouched/);
    return true;
  });
  assert.equal(await readFile(join(blocker, 'precious.txt'), 'utf8'), 'mine\n');
  assert.equal(r.git(['branch', '--list', 'stratos/*']).trim(), '');
});

test('a checkout git still lists but whose folder is gone is not pruned behind the author', async () => {
  const r = await repo();
  const lease = await acquire(r, {name: 'vanished'});
  await rm(lease.path, {recursive: true, force: true});
  await assert.rejects(
    acquire(r, {name: 'vanished', runId: 'run-2'}),
    isCode('STRATOS_WORKTREE_CREATE_FAILED'),
  );
  assert.match(r.git(['worktree', 'list', '--porcelain']), /prunable/);
});

test('outside a Git repository the agent gets a clear error before anything is created', async () => {
  await isolateGit();
  const plain = await mkdtemp(join(tmpdir(), 'stratos-no-repo-'));
  try {
    await assert.rejects(
      acquireWorktree({
        stratosHome: join(plain, 'home'),
        directory: plain,
        agent: 'coder',
        cleanup: true,
        runId: 'r',
      }),
      (error: unknown) => {
        assert.ok(isCode('STRATOS_WORKTREE_NOT_A_REPOSITORY')(error));
        assert.match((error as Error).message, /Agent 'coder' asks for a worktree.*not in a Git repository/);
        return true;
      },
    );
    await assert.rejects(stat(join(plain, '.stratos')));
    await assert.rejects(stat(join(plain, 'home', 'worktrees')));
  } finally {
    await rm(plain, {recursive: true, force: true});
  }
});

test('an invalid name fails before git runs', async () => {
  const r = await repo();
  await assert.rejects(acquire(r, {name: 'Bad/Name'}), isCode('STRATOS_WORKTREE_NAME_INVALID'));
  await assert.rejects(stat(join(r.root, '.stratos')));
});

test('an agent working in a subfolder works in the same subfolder of its checkout', async () => {
  const r = await repo();
  await r.commit('packages/app/index.js', '1\n', 'app');
  const lease = await acquire(r, {name: 'sub', directory: join(r.root, 'packages', 'app')});
  assert.equal(lease.directory, join(lease.path, 'packages', 'app'));
});

test('a repository with no commit cannot start a branch and says so', async () => {
  await isolateGit();
  const base = await mkdtemp(join(tmpdir(), 'stratos-empty-repo-'));
  try {
    const {execFileSync} = await import('node:child_process');
    execFileSync('git', ['init', '-q', base]);
    await assert.rejects(
      acquireWorktree({
        stratosHome: join(base, '.home'),
        directory: base,
        agent: 'coder',
        cleanup: true,
        runId: 'r',
      }),
      (error: unknown) =>
        isCode('STRATOS_WORKTREE_CREATE_FAILED')(error) && /no commit/.test((error as Error).message),
    );
  } finally {
    await rm(base, {recursive: true, force: true});
  }
});
