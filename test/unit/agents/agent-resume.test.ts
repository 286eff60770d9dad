import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  checkConversationContinuation,
  describeJournaledTurn,
  readJournaledConversation,
} from '../../../src/agents/agent-resume.ts';
import type {AgentHarness} from '../../../src/agents/harness.ts';
import {isStratosError} from '../../../src/errors/index.ts';

const harness = (id: AgentHarness['id'], continues: boolean): AgentHarness => ({
  id,
  continuesConversations: continues,
  createSession: () => Promise.reject(new Error('not started in this test')),
});

test('a journaled turn keeps its prompt, harness and conversation, and is read back', () => {
  const details = describeJournaledTurn('TURN 1', 'codex', 'thread-1');
  const entry = {
    key: 'w/agent:a#0',
    kind: 'agent' as const,
    name: 'a',
    arguments: {},
    outcome: {value: 'x'},
    completedAt: '',
    details,
  };
  assert.deepEqual(readJournaledConversation(entry), {harness: 'codex', id: 'thread-1'});
});

test('a harness that continues conversations gets the journaled id; nothing to continue gives none', () => {
  assert.equal(checkConversationContinuation('a', harness('codex', true), {harness: 'codex', id: 't'}), 't');
  assert.equal(checkConversationContinuation('a', harness('codex', true), undefined), undefined);
});

test('a harness that cannot continue, another harness or no identity fail with a code before any request', () => {
  for (const [h, from] of [
    [harness('acp', false), {harness: 'acp', id: 's'}],
    [harness('codex', true), {harness: 'claude-code', id: 's'}],
    [harness('codex', true), {harness: 'codex', id: undefined}],
  ] as const) {
    assert.throws(
      () => checkConversationContinuation('writer', h, from),
      (error) =>
        isStratosError(error) &&
        error.code === 'STRATOS_RESUME_CONVERSATION_UNSUPPORTED' &&
        error.message.includes("Agent 'writer'"),
    );
  }
});
