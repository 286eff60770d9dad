// The question builders are pure: plain frozen values, checked when built; decision() outside a run is an error.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {choice, decision, noul, score} from '../../../src/decision/index.ts';
import {isStratosError} from '../../../src/errors/index.ts';

const invalid = (fn: () => unknown) =>
  assert.throws(
    fn,
    (error: unknown) => isStratosError(error) && error.code === 'STRATOS_DECISION_QUESTION_INVALID',
  );

test('builders return plain frozen questions in the order given', () => {
  const question = choice('Which team?', {billing: 'Payments', bug: null});
  assert.deepEqual(question, {
    type: 'choice',
    instructions: 'Which team?',
    options: [
      {name: 'billing', description: 'Payments'},
      {name: 'bug', description: null},
    ],
  });
  assert.ok(Object.isFrozen(question) && Object.isFrozen(question.options));
  assert.deepEqual(
    choice('Pick', ['a', 'b']).options.map((o) => o.name),
    ['a', 'b'],
  );
  assert.deepEqual(score('How bad?', ['low', 'high']), {
    type: 'score',
    instructions: 'How bad?',
    levels: ['low', 'high'],
  });
  assert.deepEqual(noul('It is urgent.', {true: 'today'}), {
    type: 'noul',
    instructions: 'It is urgent.',
    criteria: {true: 'today'},
  });
});

test('questions that cannot be asked fail when built', () => {
  invalid(() => choice('Pick', ['only']));
  invalid(() => choice('Pick', ['a', 'a']));
  invalid(() =>
    choice(
      'Pick',
      Array.from({length: 21}, (_, i) => `o${i}`),
    ),
  );
  invalid(() => choice('  ', ['a', 'b']));
  invalid(() => score('How bad?', ['only']));
  invalid(() =>
    score(
      'How bad?',
      Array.from({length: 11}, (_, i) => `level ${i}`),
    ),
  );
  invalid(() => noul(''));
});

test('decision() checks the questions before anything else: a hand-made object is not a question', async () => {
  await assert.rejects(
    // biome-ignore lint/suspicious/noExplicitAny: deliberately not a built question
    decision({state: 'x', questions: {team: {type: 'choice', instructions: 'Which?'} as any}}),
    (error: unknown) => isStratosError(error) && error.code === 'STRATOS_DECISION_QUESTION_INVALID',
  );
});

test('decision() outside a running workflow is an error naming the fix', async () => {
  await assert.rejects(
    decision({state: 'x', questions: {ok: noul('It is fine.')}}),
    (error: unknown) => isStratosError(error) && error.code === 'STRATOS_RUNTIME_NO_CONTEXT',
  );
});
