// The candidate cursor of selection and fallback, without a harness: which candidate is current, which failures of
// a first turn allow falling back, the order candidates are tried in and what happens when none is left.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {ModelUnavailableError} from '../../../../src/agents/harness-kit/model-unavailable-error.ts';
import {CandidateCursor} from '../../../../src/agents/selection/candidate-cursor.ts';
import type {ReadyCandidate} from '../../../../src/agents/selection/check-readiness.ts';
import {AgentRunError, StratosError} from '../../../../src/errors/index.ts';

const sonnet: ReadyCandidate = {
  harness: 'claude-code',
  provider: 'anthropic',
  identity: 'anthropic/claude-sonnet-4-5',
  model: 'claude-sonnet-4-5',
  catalog: 'listed',
};
const gpt: ReadyCandidate = {
  harness: 'codex',
  provider: 'openai',
  identity: 'openai/gpt-5',
  model: 'gpt-5',
  catalog: 'unknown',
};
const opencode: ReadyCandidate = {
  harness: 'opencode',
  provider: 'openai',
  identity: 'openai/gpt-5',
  model: 'openai/gpt-5',
  catalog: 'listed',
};

function createPreparedCursor(ready: ReadyCandidate[]): CandidateCursor {
  const cursor = new CandidateCursor({harness: 'claude-code', model: undefined, provider: undefined});
  cursor.prepare({
    ready,
    skipped: [
      {
        harness: 'codex',
        provider: 'azure',
        identity: 'openai/gpt-5',
        model: 'gpt-5',
        reason: 'authentication-missing',
        detail: 'no Azure key',
      },
    ],
  });
  cursor.selectFirst();
  return cursor;
}

function rejection(status?: number): ModelUnavailableError {
  return new ModelUnavailableError('The model was not found.', {evidence: 'model_not_found', status});
}

test('without model preferences the cursor stays on the fixed settings and reports no skip', () => {
  const cursor = new CandidateCursor({harness: 'codex', model: 'gpt-5', provider: 'azure'});
  assert.equal(cursor.prepared, false);
  assert.deepEqual(cursor.current, {harness: 'codex', model: 'gpt-5', provider: 'azure'});
  assert.deepEqual(cursor.describeSelection(1), {
    harness: 'codex',
    provider: 'azure',
    model: 'gpt-5',
    skipped: [],
    sessionsStarted: 1,
  });
});

test('the first ready candidate becomes current; readiness skips are kept in order', () => {
  const cursor = createPreparedCursor([sonnet, gpt]);
  assert.equal(cursor.prepared, true);
  assert.deepEqual(cursor.current, {
    harness: 'claude-code',
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    identity: 'anthropic/claude-sonnet-4-5',
  });
  const selection = cursor.describeSelection(1);
  assert.equal(selection.identity, 'anthropic/claude-sonnet-4-5');
  assert.deepEqual(
    selection.skipped.map((skip) => skip.reason),
    ['authentication-missing'],
  );
});

test('rejected candidates fall back in preference order, each recorded as model-rejected', () => {
  const cursor = createPreparedCursor([sonnet, gpt, opencode]);
  const first = cursor.skipRejected(rejection(404));
  assert.deepEqual(first?.skip, {
    harness: 'claude-code',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    identity: 'anthropic/claude-sonnet-4-5',
    reason: 'model-rejected',
    detail: "claude-code rejected 'claude-sonnet-4-5' (model_not_found, HTTP 404)",
  });
  assert.equal(first?.next, gpt);
  // The next start-up makes it current.
  assert.equal(cursor.current.harness, 'claude-code');
  assert.equal(cursor.selectFirst(), gpt);
  assert.equal(cursor.current.harness, 'codex');
  const second = cursor.skipRejected(rejection());
  assert.equal(second?.skip.detail, "codex rejected 'gpt-5' (model_not_found)");
  assert.equal(cursor.selectFirst(), opencode);
  assert.deepEqual(
    cursor.describeSelection(3).skipped.map((skip) => `${skip.harness}:${skip.reason}`),
    ['codex:authentication-missing', 'claude-code:model-rejected', 'codex:model-rejected'],
  );
});

test('with no other candidate left, a rejection changes nothing', () => {
  const cursor = createPreparedCursor([sonnet, gpt]);
  assert.ok(cursor.skipRejected(rejection()));
  cursor.selectFirst();
  assert.equal(cursor.skipRejected(rejection()), undefined);
  assert.equal(cursor.current.harness, 'codex');
  assert.equal(cursor.describeSelection(2).skipped.length, 2);
  assert.equal(cursor.selectFirst(), gpt);
});

test('without prepared candidates a rejection has nowhere to go', () => {
  const cursor = new CandidateCursor({harness: 'claude-code', model: 'claude-opus-4-1', provider: undefined});
  assert.equal(cursor.skipRejected(rejection()), undefined);
  assert.throws(
    () => cursor.selectFirst(),
    (error: unknown) => error instanceof StratosError && error.code === 'STRATOS_INTERNAL',
  );
});

test('only a structured model rejection on an unfixed, running first turn allows fallback', () => {
  const cursor = createPreparedCursor([sonnet, gpt]);
  assert.equal(cursor.decideFailure(rejection(), false), 'fall-back');
  // Cancelled: the rejection is not acted on.
  assert.equal(cursor.decideFailure(rejection(), true), 'fail');
  // Any other failure fails the execute, however it reads.
  assert.equal(cursor.decideFailure(new Error('model_not_found'), false), 'fail');
  assert.equal(
    cursor.decideFailure(
      new AgentRunError('the model was not found.', {agent: 'a', harness: 'codex'}),
      false,
    ),
    'fail',
  );
  assert.equal(
    cursor.decideFailure(new StratosError('STRATOS_AGENT_RUN_FAILED', 'The turn failed.'), false),
    'fail',
  );
});

test('an MCP server that could not start before any request restarts the session instead', () => {
  const cursor = createPreparedCursor([sonnet, gpt]);
  const connect = new StratosError('STRATOS_MCP_CONNECT_FAILED', 'Server docs could not start.');
  assert.equal(cursor.decideFailure(connect, false), 'restart');
  assert.equal(cursor.decideFailure(connect, true), 'restart');
});

test('once the selection is fixed no failure falls back or restarts', () => {
  const cursor = createPreparedCursor([sonnet, gpt]);
  assert.equal(cursor.fixed, false);
  cursor.fix();
  assert.equal(cursor.fixed, true);
  assert.equal(cursor.decideFailure(rejection(), false), 'fail');
  assert.equal(
    cursor.decideFailure(
      new StratosError('STRATOS_MCP_CONNECT_FAILED', 'Server docs could not start.'),
      false,
    ),
    'fail',
  );
});
