import assert from 'node:assert/strict';
import {test} from 'node:test';
import {AgentRunError} from '../../../src/errors/index.ts';

test('AgentRunError carries only what Stratos sets: cancelled, never a timedOut that nothing raises', () => {
  const cancelled = new AgentRunError('stopped', {agent: 'a', harness: 'codex', cancelled: true});
  assert.equal(cancelled.code, 'STRATOS_AGENT_CANCELLED');
  assert.equal(cancelled.cancelled, true);
  assert.equal('timedOut' in cancelled, false);
  // @ts-expect-error Agents have no time limit, so the error has no timedOut field.
  assert.equal(cancelled.timedOut, undefined);
});
