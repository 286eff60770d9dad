import assert from 'node:assert/strict';
import {test} from 'node:test';
import {CaseScript} from '../../../src/cases/case-script.ts';
import {createCaseSource} from '../../../src/cases/case-source.ts';
import type {TestCase} from '../../../src/cases/test-case.ts';
import {createJournalSeam} from '../../../src/context/journal-seam.ts';
import type {JournalEntry, JournalStore} from '../../../src/context/step-journal.ts';
import type {StepSeam} from '../../../src/context/step-seam.ts';
import {isStratosError} from '../../../src/errors/index.ts';

function createCase(parts: Partial<TestCase>): CaseScript {
  return new CaseScript({input: {}, agents: [], mcp: {}, decisions: [], children: [], match: {}, ...parts});
}

function journaled(key: string, kind: JournalEntry['kind'], name: string, args: unknown, value: unknown) {
  return {
    key,
    kind,
    sequence: 0,
    name,
    arguments: args,
    outcome: {value},
    completedAt: '2026-12-03T00:00:00Z',
  };
}

/** What every primitive does: open the step, ask it once, and hand back the recorded value. */
function askAgent(seam: StepSeam, prompt: string) {
  const step = seam.open({kind: 'agent', name: 'writer', arguments: {prompt: 'p.md'}, workflow: 'review'});
  const recorded = step.answer({prompt});
  if (recorded === undefined) return {key: step.key, live: true};
  return {
    key: step.key,
    source: recorded.source,
    value: recorded.source === 'journal' ? recorded.entry.outcome.value : recorded.value,
  };
}

test('one seam answers the same step from a journal source and from a case source through the same call', () => {
  const fromJournal = createJournalSeam('review', {
    replay: [journaled('review/agent:writer#0', 'agent', 'writer', {prompt: 'p.md'}, 'journaled text')],
  });
  const fromCase = createJournalSeam('review', {
    source: createCaseSource(
      createCase({agents: [{agent: 'writer', prompt: 'draft', reply: 'scripted text'}]}),
    ),
  });
  assert.deepEqual(askAgent(fromJournal, 'draft the notes'), {
    key: 'review/agent:writer#0',
    source: 'journal',
    value: 'journaled text',
  });
  assert.deepEqual(askAgent(fromCase, 'draft the notes'), {
    key: 'review/agent:writer#0',
    source: 'case',
    value: {text: 'scripted text'},
  });
  // Without a source the step runs live.
  assert.deepEqual(askAgent(createJournalSeam('review'), 'draft'), {
    key: 'review/agent:writer#0',
    live: true,
  });
});

test('a case source throws STRATOS_TEST_CALL_UNSCRIPTED for a call it scripts no answer for, and remembers it', () => {
  const script = createCase({});
  const seam = createJournalSeam('review', {source: createCaseSource(script)});
  assert.throws(
    () => askAgent(seam, 'anything'),
    (error) => isStratosError(error) && error.code === 'STRATOS_TEST_CALL_UNSCRIPTED',
  );
  assert.deepEqual(
    script.unscripted().map((problem) => problem.code),
    ['STRATOS_TEST_CALL_UNSCRIPTED'],
  );
});

test('a case answers only what it scripts: step() and unscripted servers and children run live', () => {
  const seam = createJournalSeam('review', {
    source: createCaseSource(createCase({mcp: {tracker: []}})),
  });
  assert.equal(seam.answersServer({workflow: 'review', server: 'tracker'}), true);
  assert.equal(seam.answersServer({workflow: 'review', server: 'other'}), false);
  assert.equal(seam.open({kind: 'step', name: 'a', arguments: null, workflow: 'review'}).answer(), undefined);
  const call = seam.open({kind: 'mcp', name: 'other/t', arguments: {}, workflow: 'review'});
  assert.equal(call.answer({server: 'other', tool: 't'}), undefined);
  const child = seam.open({kind: 'child', name: 'fix', arguments: {}, workflow: 'review'});
  assert.equal(child.answer({input: {}}), undefined);
});

test('an answered step is not appended to the run journal; a live one is', async () => {
  const appended: string[] = [];
  const store: JournalStore = {read: async () => [], append: async (entry) => void appended.push(entry.key)};
  const seam = createJournalSeam('review', {
    store,
    source: createCaseSource(createCase({decisions: [{decision: 'route', answers: {go: true}}]})),
  });
  const decision = seam.open({
    kind: 'decision',
    name: 'route',
    arguments: {state: {}, questions: {go: {}}},
    workflow: 'review',
  });
  assert.deepEqual(decision.answer(), {source: 'case', value: {go: true}});
  await decision.complete({value: {go: true}});
  const live = seam.open({kind: 'step', name: 'a', arguments: null, workflow: 'review'});
  assert.equal(live.answer(), undefined);
  await live.complete({value: 1});
  assert.deepEqual(appended, ['review/step:a#0']);
});
