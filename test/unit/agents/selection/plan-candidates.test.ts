import assert from 'node:assert/strict';
import {test} from 'node:test';
import {planCandidates, type SelectionCandidate} from '../../../../src/agents/selection/plan-candidates.ts';

const all = ['claude-code', 'codex', 'opencode'] as const;
const brief = (candidates: SelectionCandidate[]) =>
  candidates.map((c) => `${c.harness} ${c.provider} ${c.model}`);

test("creator's harness first in preference order, then OpenCode in preference order", async () => {
  const plan = await planCandidates({
    models: ['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'google/gemini-2.5-pro'],
    registered: all,
  });
  assert.deepEqual(brief(plan.candidates), [
    'codex openai gpt-5',
    'claude-code anthropic claude-sonnet-4-5',
    'opencode openai openai/gpt-5',
    'opencode anthropic anthropic/claude-sonnet-4-5',
    'opencode google google/gemini-2.5-pro',
  ]);
  assert.deepEqual(plan.unmapped, []);
});

test('an explicit harness constrains selection to it', async () => {
  const plan = await planCandidates({
    models: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5'],
    harness: 'codex',
    registered: all,
  });
  assert.deepEqual(brief(plan.candidates), ['codex openai gpt-5']);
  assert.equal(plan.unmapped.length, 1);
  assert.equal(plan.unmapped[0]!.identity, 'anthropic/claude-sonnet-4-5');
  assert.match(plan.unmapped[0]!.reason, /codex \(provider openai\)/);
});

test('without OpenCode registered, other creators have no candidate and say why', async () => {
  const plan = await planCandidates({
    models: ['google/gemini-2.5-pro'],
    registered: ['claude-code', 'codex'],
  });
  assert.deepEqual(plan.candidates, []);
  assert.match(plan.unmapped[0]!.reason, /no registered harness serves models of 'google'/);
});

test('a native id or unknown identity is unmapped, never guessed', async () => {
  const plan = await planCandidates({models: ['gpt-5', 'openai/gpt-5-turbo-guess'], registered: all});
  assert.deepEqual(plan.candidates, []);
  assert.deepEqual(
    plan.unmapped.map((u) => u.identity),
    ['gpt-5', 'openai/gpt-5-turbo-guess'],
  );
  assert.match(plan.unmapped[0]!.reason, /<creator>\/<model>/);
});

test('an explicit provider is the one provider every candidate uses', async () => {
  const plan = await planCandidates({
    models: ['openai/gpt-5'],
    harness: 'opencode',
    provider: 'openrouter',
    registered: all,
  });
  assert.deepEqual(brief(plan.candidates), ['opencode openrouter openrouter/openai/gpt-5']);
});
