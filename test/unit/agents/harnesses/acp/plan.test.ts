// An ACP `plan` session update as Stratos's `plan` observation: every entry in order, entries without ACP's shape
// skipped.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {toPlanEvent} from '../../../../../src/agents/harnesses/acp/plan.ts';

test('acp plan: every entry of the update, in order, with its status and priority', () => {
  const update = {
    sessionUpdate: 'plan',
    entries: [
      {content: 'Read the code', status: 'completed', priority: 'high'},
      {content: 'Write the test', status: 'in_progress', priority: 'medium'},
      {content: 'Ship it', status: 'pending', priority: 'low', _meta: {extra: true}},
    ],
  };
  assert.deepEqual(toPlanEvent(update), {
    type: 'plan',
    entries: [
      {content: 'Read the code', status: 'completed', priority: 'high'},
      {content: 'Write the test', status: 'in_progress', priority: 'medium'},
      {content: 'Ship it', status: 'pending', priority: 'low'},
    ],
  });
});

test('acp plan: an empty plan is reported; entries without ACP shape are skipped, not guessed', () => {
  assert.deepEqual(toPlanEvent({sessionUpdate: 'plan', entries: []}), {type: 'plan', entries: []});
  const update = {
    sessionUpdate: 'plan',
    entries: [
      null,
      {content: '', status: 'pending', priority: 'high'},
      {content: 'No status', priority: 'high'},
      {content: 'Odd status', status: 'blocked', priority: 'high'},
      {content: 'Odd priority', status: 'pending', priority: 'urgent'},
      {content: 'Kept', status: 'pending', priority: 'high'},
    ],
  };
  assert.deepEqual(toPlanEvent(update), {
    type: 'plan',
    entries: [{content: 'Kept', status: 'pending', priority: 'high'}],
  });
  assert.equal(toPlanEvent({sessionUpdate: 'plan'}), undefined);
});
