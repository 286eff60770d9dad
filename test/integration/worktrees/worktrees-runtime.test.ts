// The runtime's side of worktrees, through the real invocation pipeline and real git: a top-level run releases
// the worktrees its invocation tree acquired only after it and all its descendants ended, on success, failure and
// cancellation (a run that can be resumed holds its checkouts), with the decisions as result warnings, run.log lines and span events. Workflow code here uses the
// context's worktree gate exactly as an agent does, without a harness (test/integration/worktrees/agent-worktree.test.ts
// covers the harness).
import assert from 'node:assert/strict';
import {readFile, rm, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {afterEach, test} from 'node:test';
import {z} from 'zod';
import type {WorktreeRequest} from '../../../src/context/execution-context.ts';
import {workflow} from '../../../src/contract/index.ts';
import {StratosError} from '../../../src/errors/index.ts';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';
import {findExecutionContext, invokeWorkflow} from '../../../src/runtime/index.ts';
import {createTempRepo, type TempRepo} from '../../helpers/git-repo.ts';

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

/** Acquires through the running invocation's gate, as createAgent does at its first execute. */
function acquire(name: string, event?: WorktreeRequest['event']) {
  const context = findExecutionContext()!;
  return context.worktrees!.acquire({
    agent: 'coder',
    directory: context.invocationDirectory,
    name,
    cleanup: true,
    event: event ?? ((eventName, attributes) => context.telemetry.event(eventName, attributes)),
  });
}

function invoke(r: TempRepo, name: string, run: () => Promise<unknown>, signal?: AbortSignal) {
  return invokeWorkflow({
    workflow: {name, directory: r.root, manifest: manifestOf(name)},
    definition: workflow({input: z.strictObject({}), output: z.object({}), run: run as never}),
    input: {},
    invocationDirectory: r.root,
    stratosHome: r.home,
    ...(signal === undefined ? {} : {signal}),
  });
}

test('success: a checkout with work is kept, with the warning, the run.log line and the event', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const path = join(r.root, '.stratos', 'worktrees', 'kept');
  const result = await invoke(r, 'keeps', async () => {
    await acquire('kept');
    await writeFile(join(path, 'result.txt'), 'agent output\n');
    return {};
  });
  assert.equal(result.ok, true);
  const warning = result.telemetryWarnings.find((w) => w.code === 'STRATOS_WORKTREE_KEPT_CHANGES');
  assert.match(warning?.message ?? '', /Worktree 'kept' .*untracked changes \(result\.txt\)/);
  assert.equal(await readFile(join(path, 'result.txt'), 'utf8'), 'agent output\n');
  const log = await readFile(join(result.runDirectory!, 'run.log'), 'utf8');
  assert.match(
    log,
    /event stratos\.worktree\.cleanup: Worktree 'kept' .*was kept because it has untracked changes/,
  );
  const runJson = JSON.parse(await readFile(join(result.runDirectory!, 'run.json'), 'utf8'));
  assert.ok(runJson.diagnostics.some((d: {code: string}) => d.code === 'STRATOS_WORKTREE_KEPT_CHANGES'));
});

test('failure: the run fails and keeps its clean checkout for resume until it can no longer be resumed', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const path = join(r.root, '.stratos', 'worktrees', 'failing');
  const result = await invoke(r, 'fails', async () => {
    await acquire('failing');
    throw new Error('the workflow broke');
  });
  assert.equal(result.ok, false);
  assert.equal(await exists(path), true);
  assert.equal(
    result.telemetryWarnings.some((w) => w.code.startsWith('STRATOS_WORKTREE_KEPT')),
    false,
  );
  const log = await readFile(join(result.runDirectory!, 'run.log'), 'utf8');
  assert.match(log, /event stratos\.worktree\.cleanup: Worktree 'failing' at .* is kept for resuming run /);
  // Once the run cannot be resumed (its folder went, as run retention removes it), reconciliation cleans it.
  await rm(result.runDirectory!, {recursive: true, force: true});
  const next = await invoke(r, 'next', async () => {
    await acquire('unrelated');
    return {};
  });
  assert.equal(next.ok, true);
  assert.equal(await exists(path), false);
  assert.equal(r.git(['branch', '--list', 'stratos/failing']).trim(), 'stratos/failing');
});

test('cancellation: cleanup runs after the cancelled run stops', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const path = join(r.root, '.stratos', 'worktrees', 'cancelled');
  const controller = new AbortController();
  const result = await invoke(
    r,
    'cancels',
    async () => {
      await acquire('cancelled');
      await writeFile(join(path, 'partial.txt'), 'half\n');
      const signal = findExecutionContext()!.abortController.signal;
      setImmediate(() =>
        controller.abort(new StratosError('STRATOS_RUN_CANCELLED', 'The run was cancelled (SIGINT).')),
      );
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      return {};
    },
    controller.signal,
  );
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_RUN_CANCELLED');
  // A cancelled run can be resumed: its checkout is held for that, work and all.
  const log = await readFile(join(result.runDirectory!, 'run.log'), 'utf8');
  assert.match(log, /Worktree 'cancelled' at .* is kept for resuming run /);
  assert.equal(await readFile(join(path, 'partial.txt'), 'utf8'), 'half\n');
});

test('descendants: a child ending releases nothing; the top-level run releases once everything ended', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const path = join(r.root, '.stratos', 'worktrees', 'family');
  const childEvents: string[] = [];
  const seen: boolean[] = [];
  const result = await invoke(r, 'parent', async () => {
    const parent = findExecutionContext()!;
    const child = await invokeWorkflow({
      workflow: {name: 'child', directory: r.root, manifest: manifestOf('child')},
      definition: workflow({
        input: z.strictObject({}),
        output: z.object({}),
        run: async () => {
          await acquire('family', (name) => childEvents.push(name));
          return {};
        },
      }),
      input: {},
      invocationDirectory: r.root,
      parent,
    });
    assert.equal(child.ok, true);
    // The child has ended: its worktree stays, registered to the top-level run.
    seen.push(await exists(path));
    // The parent shares the child's checkout: the same gate, the same registration.
    await acquire('family');
    return {};
  });
  assert.equal(result.ok, true, result.ok ? '' : result.error.message);
  assert.deepEqual(seen, [true]);
  assert.equal(await exists(path), false);
  assert.deepEqual(childEvents, ['stratos.worktree.created', 'stratos.worktree.cleanup']);
  const records = (await readFile(join(result.runDirectory!, 'events.jsonl'), 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const childEnd = records.findIndex((e) => e.type === 'workflow.end' && e.workflow === 'child');
  const cleanup = records.findIndex((e) => e.name === 'stratos.worktree.cleanup');
  assert.ok(childEnd >= 0 && cleanup > childEnd, 'cleanup after the child ended');
  const reused = records.find((e) => e.name === 'stratos.worktree.reused');
  assert.equal(reused.attributes['stratos.worktree.name'], 'family');
});

test('outside a repository the gate fails before anything is created, and the run reports it', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const {mkdtemp, rm} = await import('node:fs/promises');
  const {tmpdir} = await import('node:os');
  const outside = await mkdtemp(join(tmpdir(), 'stratos-outside-'));
  try {
    const result = await invokeWorkflow({
      workflow: {name: 'outside', directory: outside, manifest: manifestOf('outside')},
      definition: workflow({
        input: z.strictObject({}),
        output: z.object({}),
        run: async () => {
          await acquire('x');
          return {};
        },
      }),
      input: {},
      invocationDirectory: outside,
      stratosHome: r.home,
    });
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'STRATOS_WORKTREE_NOT_A_REPOSITORY');
    assert.equal(await exists(join(outside, '.stratos')), false);
  } finally {
    await rm(outside, {recursive: true, force: true});
  }
});

test('an unreadable bookkeeping record stops the agent with a worktree error and never removes the checkout', async () => {
  const r = await createTempRepo();
  repos.push(r);
  const {recordsDirectory} = await import('../../../src/worktrees/worktree-records.ts');
  const path = join(r.root, '.stratos', 'worktrees', 'damaged');
  const codes: string[] = [];
  const result = await invoke(r, 'damaged', async () => {
    await acquire('damaged');
    await writeFile(join(recordsDirectory(r.home, r.root), 'damaged.json'), '{not json');
    await acquire('damaged').catch((error: StratosError) => codes.push(error.code));
    return {};
  });
  assert.equal(result.ok, true);
  assert.deepEqual(codes, ['STRATOS_WORKTREE_CREATE_FAILED']);
  const warning = result.telemetryWarnings.find((w) => w.code === 'STRATOS_WORKTREE_KEPT_UNVERIFIED');
  assert.match(
    warning?.message ?? '',
    /'damaged' was kept because safe cleanup could not be established: its bookkeeping failed/,
  );
  assert.equal(await exists(path), true);
});
