// Worktrees and resume through the real invocation pipeline and real git, without a harness (workflow code uses
// the context's worktree gate with a step key, as an agent's first execute does): a run that does not succeed
// holds its checkouts and records them in resume.json; its resume reopens the same checkout (unnamed or named)
// for the same key, a successful resume releases the hold, and a checkout gone or replaced is
// STRATOS_RESUME_WORKTREE_MISSING, never a new checkout.
import assert from 'node:assert/strict';
import {mkdir, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {z} from 'zod';
import {workflow} from '../../../src/contract/index.ts';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';
import {findExecutionContext, invokeWorkflow} from '../../../src/runtime/index.ts';
import {readResumeRecord} from '../../../src/runtime/resume-record.ts';
import type {ResumeSource} from '../../../src/runtime/run-journal.ts';
import {reconcileWorktrees} from '../../../src/worktrees/reconcile-worktrees.ts';
import {createTempRepo, type TempRepo} from '../../helpers/git-repo.ts';
import {spawnReady} from '../../helpers/spawn-ready.ts';

const helper = fileURLToPath(new URL('../../helpers/worktree-process.ts', import.meta.url));

const repos: TempRepo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.remove();
});

const manifestOf = (name: string): WorkflowManifest => ({
  name,
  shortDescription: `${name}.`,
  longDescription: 'Test.',
  version: '1.0.0',
  entrypoint: 'workflow.ts',
});

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Acquires as an agent whose first execute had step key `key` does. */
function acquire(key: string, name?: string) {
  const context = findExecutionContext()!;
  return context.worktrees!.acquire({
    agent: 'coder',
    directory: context.invocationDirectory,
    name,
    cleanup: true,
    key,
    event: (eventName, attributes) => context.telemetry.event(eventName, attributes),
  });
}

function invoke(r: TempRepo, run: () => Promise<unknown>, resume?: ResumeSource) {
  return invokeWorkflow({
    workflow: {name: 'coding', directory: r.root, manifest: manifestOf('coding')},
    definition: workflow({input: z.strictObject({}), output: z.object({}), run: run as never}),
    input: {},
    invocationDirectory: r.root,
    stratosHome: r.home,
    ...(resume === undefined ? {} : {resume}),
  });
}

/** What `stratos runs resume` hands the runtime for the run in `directory`. */
function resumeOf(directory: string): ResumeSource {
  const record = readResumeRecord(directory)!;
  return {
    resumedFrom: basename(directory),
    journal: [],
    lineage: [directory, ...(record.lineage ?? [])],
    worktrees: record.worktrees ?? [],
  };
}

test('a failed run records and holds its unnamed checkout; its resume reopens it and a success releases it', async () => {
  const r = await createTempRepo();
  repos.push(r);
  let first = '';
  const failed = await invoke(r, async () => {
    first = (await acquire('coding/agent:coder#0')).path;
    await writeFile(join(first, 'draft.txt'), 'half done\n');
    throw new Error('the workflow broke');
  });
  assert.equal(failed.ok, false);
  const recorded = readResumeRecord(failed.runDirectory!)!.worktrees!;
  assert.equal(recorded.length, 1);
  assert.equal(recorded[0]!.key, 'coding/agent:coder#0');
  assert.equal(recorded[0]!.path, first);
  assert.equal(recorded[0]!.named, false);

  // A failed resume holds the checkout too, and carries the record on.
  const again = await invoke(
    r,
    async () => {
      const lease = await acquire('coding/agent:coder#0');
      assert.equal(lease.path, first);
      throw new Error('broke again');
    },
    resumeOf(failed.runDirectory!),
  );
  assert.equal(again.ok, false);
  assert.deepEqual(readResumeRecord(again.runDirectory!)!.worktrees, recorded);
  assert.equal(await readFile(join(first, 'draft.txt'), 'utf8'), 'half done\n');

  // The resume of the resume succeeds: the agent finds its earlier work, commits it, and the clean checkout goes.
  const done = await invoke(
    r,
    async () => {
      const lease = await acquire('coding/agent:coder#0');
      assert.equal(lease.path, first);
      assert.equal(await readFile(join(lease.path, 'draft.txt'), 'utf8'), 'half done\n');
      r.git(['add', 'draft.txt'], lease.path);
      r.git(['commit', '-q', '-m', 'draft'], lease.path);
      return {};
    },
    resumeOf(again.runDirectory!),
  );
  assert.equal(done.ok, true, done.ok ? '' : done.error.message);
  assert.equal(await exists(first), false);
  assert.deepEqual(done.telemetryWarnings, []);
  const [records] = await readdir(join(r.home, 'worktrees'));
  const files = await readdir(join(r.home, 'worktrees', records!));
  assert.deepEqual(
    files.filter((file) => file.endsWith('.json')),
    [],
  );
});

test('a successful resume releases the hold even when no agent reopened the checkout', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const path = join(r.root, '.stratos', 'worktrees', 'named-one');
  const failed = await invoke(r, async () => {
    await acquire('coding/agent:coder#0', 'named-one');
    throw new Error('the workflow broke');
  });
  assert.equal(failed.ok, false);
  assert.equal(await exists(path), true);
  const done = await invoke(r, async () => ({}), resumeOf(failed.runDirectory!));
  assert.equal(done.ok, true);
  assert.equal(await exists(path), false);
  assert.equal(r.git(['branch', '--list', 'stratos/named-one']).trim(), 'stratos/named-one');
});

test('a removed or replaced checkout is STRATOS_RESUME_WORKTREE_MISSING, and nothing new is created', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const failed = await invoke(r, async () => {
    await acquire('coding/agent:coder#0');
    await acquire('coding/agent:reviewer#0', 'review');
    throw new Error('the workflow broke');
  });
  const [unnamed, named] = readResumeRecord(failed.runDirectory!)!.worktrees!;
  const worktrees = join(r.root, '.stratos', 'worktrees');
  const before = (await readdir(worktrees)).sort();

  r.git(['worktree', 'remove', '--force', unnamed!.path]);
  const gone = await invoke(
    r,
    async () => {
      await acquire('coding/agent:coder#0');
      return {};
    },
    resumeOf(failed.runDirectory!),
  );
  assert.equal(gone.ok, false);
  assert.equal(gone.error.code, 'STRATOS_RESUME_WORKTREE_MISSING');
  assert.match(gone.error.message, /is gone \(removed or moved\).*does not start it in a new checkout/);
  assert.deepEqual(
    (await readdir(worktrees)).sort(),
    before.filter((name) => name !== basename(unnamed!.path)),
  );

  // A named one replaced by a plain folder is not a worktree any more: the same error, the folder untouched.
  r.git(['worktree', 'remove', '--force', named!.path]);
  await mkdir(named!.path);
  await writeFile(join(named!.path, 'mine.txt'), 'not a checkout\n');
  const replaced = await invoke(
    r,
    async () => {
      await acquire('coding/agent:reviewer#0', 'review');
      return {};
    },
    resumeOf(failed.runDirectory!),
  );
  assert.equal(replaced.ok, false);
  assert.equal(replaced.error.code, 'STRATOS_RESUME_WORKTREE_MISSING');
  assert.match(replaced.error.message, /is no longer a worktree of/);
  assert.equal(await readFile(join(named!.path, 'mine.txt'), 'utf8'), 'not a checkout\n');
  await rm(named!.path, {recursive: true});
});

test('crash reconciliation holds the clean checkout of a killed run that can be resumed, until it cannot', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const runDirectory = join(r.base, 'runs', '2026-12-03T10-00-00-killed1');
  await mkdir(runDirectory, {recursive: true});
  await writeFile(join(runDirectory, 'resume.json'), '{}\n');
  const other = await spawnReady(helper, ['acquire', r.home, r.root, 'crashed', 'killed1', runDirectory]);
  const path = String(other.ready.path);
  other.child.kill('SIGKILL');
  await other.exited;

  const held = await reconcileWorktrees({stratosHome: r.home, repository: r.root});
  assert.equal(held.length, 1);
  assert.equal(held[0]!.action, 'kept');
  assert.equal(held[0]!.reason, 'resumable');
  assert.equal(held[0]!.diagnostic, undefined);
  assert.match(held[0]!.message, /kept for resuming run 2026-12-03T10-00-00-killed1/);
  assert.equal(await exists(path), true);
  // Held once: later sweeps leave it alone while the run can be resumed.
  assert.deepEqual(await reconcileWorktrees({stratosHome: r.home, repository: r.root}), []);

  // The run cannot be resumed any more (its folder was removed): the next sweep cleans the checkout.
  await rm(runDirectory, {recursive: true});
  const cleaned = await reconcileWorktrees({stratosHome: r.home, repository: r.root});
  assert.equal(cleaned.length, 1);
  assert.equal(cleaned[0]!.action, 'removed');
  assert.equal(await exists(path), false);
});
