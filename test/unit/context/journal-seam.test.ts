import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {createJournalSeam} from '../../../src/context/journal-seam.ts';
import {openJsonlJournalStore, readJournalFile} from '../../../src/context/jsonl-journal-store.ts';
import type {JournalEntry} from '../../../src/context/step-journal.ts';
import {isStratosError} from '../../../src/errors/index.ts';

async function withFolder(fn: (folder: string) => Promise<void>): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'stratos-journal-'));
  try {
    await fn(folder);
  } finally {
    await rm(folder, {recursive: true, force: true});
  }
}

test('keys carry the position, the primitive, the name and the ordinal of that key', () => {
  const seam = createJournalSeam('review');
  assert.equal(seam.open({kind: 'agent', name: 'writer', arguments: {}}).key, 'review/agent:writer#0');
  assert.equal(seam.open({kind: 'agent', name: 'writer', arguments: {}}).key, 'review/agent:writer#1');
  assert.equal(
    seam.open({kind: 'mcp', name: 'tracker/create', arguments: {}}).key,
    'review/mcp:tracker/create#0',
  );
  const child = seam.open({kind: 'child', name: 'fix', arguments: {}});
  assert.equal(child.key, 'review/child:fix#0');
  assert.equal(
    seam.within(child.key).open({kind: 'step', name: 'a', arguments: null}).key,
    'review/child:fix#0/step:a#0',
  );
});

test('completed steps are appended to journal.jsonl and answer a resumed run', async () => {
  await withFolder(async (folder) => {
    const first = createJournalSeam('wf', {store: openJsonlJournalStore(folder)});
    const a = first.open({kind: 'step', name: 'a', arguments: null});
    await a.complete({value: {n: 1}});
    const b = first.open({kind: 'mcp', name: 's/t', arguments: {x: 1}});
    await b.complete({error: {code: 'STRATOS_MCP_CALL_FAILED', message: 'no'}});
    const journal = readJournalFile(join(folder, 'journal.jsonl'));
    assert.deepEqual(
      journal.map((entry) => [entry.key, entry.sequence]),
      [
        ['wf/step:a#0', 0],
        ['wf/mcp:s/t#0', 1],
      ],
    );
    const resumed = createJournalSeam('wf', {replay: journal});
    assert.deepEqual(resumed.open({kind: 'step', name: 'a', arguments: null}).recorded?.outcome, {
      value: {n: 1},
    });
    assert.equal(
      resumed.open({kind: 'mcp', name: 's/t', arguments: {x: 1}}).recorded?.outcome.error?.code,
      'STRATOS_MCP_CALL_FAILED',
    );
    assert.equal(resumed.open({kind: 'step', name: 'c', arguments: null}).recorded, undefined);
  });
});

test('another step at a journaled place, or other arguments, diverge and name both steps', () => {
  const journal: JournalEntry[] = [
    {
      key: 'wf/step:a#0',
      kind: 'step',
      sequence: 0,
      name: 'a',
      arguments: null,
      outcome: {value: 1},
      completedAt: '',
    },
    {
      key: 'wf/mcp:s/t#0',
      kind: 'mcp',
      sequence: 1,
      name: 's/t',
      arguments: {x: 1},
      outcome: {value: 2},
      completedAt: '',
    },
  ];
  const other = createJournalSeam('wf', {replay: journal});
  assert.throws(
    () => other.open({kind: 'step', name: 'b', arguments: null}),
    (error) =>
      isStratosError(error) &&
      error.code === 'STRATOS_RESUME_DIVERGED' &&
      /step:b#0.*step:a#0/.test(error.message),
  );
  const changed = createJournalSeam('wf', {replay: journal});
  changed.open({kind: 'step', name: 'a', arguments: null});
  assert.throws(
    () => changed.open({kind: 'mcp', name: 's/t', arguments: {x: 2}}),
    (error) =>
      isStratosError(error) && error.code === 'STRATOS_RESUME_DIVERGED' && error.message.includes('"x":2'),
  );
});

test('a line torn by a crash is ignored on read', async () => {
  await withFolder(async (folder) => {
    const path = join(folder, 'journal.jsonl');
    await writeFile(
      path,
      '{"key":"wf/step:a#0","kind":"step","name":"a","arguments":null,"outcome":{"value":1},"completedAt":""}\n{"key":"wf/st',
    );
    assert.equal(readJournalFile(path).length, 1);
    assert.deepEqual(readJournalFile(join(folder, 'absent.jsonl')), []);
    assert.ok((await readFile(path, 'utf8')).length > 0);
  });
});

test('cancellations and failures of the resume itself are not journaled as a step result', async () => {
  const {journaledFailure} = await import('../../../src/context/replayed-step.ts');
  const {StratosError} = await import('../../../src/errors/index.ts');
  assert.equal(journaledFailure(new StratosError('STRATOS_RUN_CANCELLED', 'stop')), undefined);
  assert.equal(journaledFailure(new StratosError('STRATOS_MCP_CALL_CANCELLED', 'stop')), undefined);
  assert.equal(journaledFailure(new StratosError('STRATOS_RESUME_DIVERGED', 'other')), undefined);
  assert.deepEqual(journaledFailure(new StratosError('STRATOS_MCP_CALL_FAILED', 'no')), {
    error: {code: 'STRATOS_MCP_CALL_FAILED', message: 'no'},
  });
  assert.deepEqual(journaledFailure(new Error('boom')), {
    error: {code: 'STRATOS_RUN_FAILED', message: 'boom'},
  });
});

test('a seam with a machine records it on every completed step and hands it to child seams', async () => {
  const machine = {host: 'build-1', id: 'aaaaaaaaaaaaaaaa'};
  const entries: JournalEntry[] = [];
  const seam = createJournalSeam('wf', {
    store: {read: async () => entries, append: async (e) => void entries.push(e)},
    machine,
  });
  await seam.open({kind: 'agent', name: 'main', arguments: {}}).complete({value: 'x'});
  const child = seam.within('wf/child:c#0');
  assert.deepEqual(child.machine, machine);
  await child.open({kind: 'step', name: 's', arguments: null}).complete({value: 1});
  assert.deepEqual(
    entries.map((entry) => entry.machine),
    [machine, machine],
  );
  const local = createJournalSeam('wf', {
    store: {read: async () => [], append: async (e) => void entries.push(e)},
  });
  assert.equal(local.machine, undefined);
  await local.open({kind: 'step', name: 't', arguments: null}).complete({value: 2});
  assert.equal(entries.at(-1)?.machine, undefined);
});
