import assert from 'node:assert/strict';
import {test} from 'node:test';
import {checkReadiness, type ReadinessChecks} from '../../../../src/agents/selection/check-readiness.ts';
import type {SelectionCandidate} from '../../../../src/agents/selection/plan-candidates.ts';
import {StratosError} from '../../../../src/errors/index.ts';

const candidates: SelectionCandidate[] = [
  {harness: 'codex', provider: 'openai', identity: 'openai/gpt-5', model: 'gpt-5'},
  {
    harness: 'claude-code',
    provider: 'anthropic',
    identity: 'anthropic/claude-sonnet-4-5',
    model: 'claude-sonnet-4-5',
  },
  {
    harness: 'opencode',
    provider: 'anthropic',
    identity: 'anthropic/claude-sonnet-4-5',
    model: 'anthropic/claude-sonnet-4-5',
  },
  {
    harness: 'opencode',
    provider: 'google',
    identity: 'google/gemini-2.5-pro',
    model: 'google/gemini-2.5-pro',
  },
];

function checks(overrides: Partial<ReadinessChecks>, calls: string[] = []): ReadinessChecks {
  return {
    isInstalled: async (harness) => {
      calls.push(`installed ${harness}`);
      return true;
    },
    hasAuthentication: async (harness, provider) => {
      calls.push(`auth ${harness} ${provider}`);
      return true;
    },
    readCatalog: async (provider) => {
      calls.push(`catalog ${provider}`);
      return undefined;
    },
    ...overrides,
  };
}

test('missing harness, missing authentication and a complete catalog without the model skip, with why', async () => {
  const result = await checkReadiness(
    candidates,
    checks({
      isInstalled: async (harness) => harness !== 'codex',
      hasAuthentication: async (_harness, provider) => provider !== 'google',
      readCatalog: async (provider) =>
        provider === 'anthropic' ? {complete: true, models: new Set(['claude-opus-4-1'])} : undefined,
    }),
  );
  assert.deepEqual(
    result.skipped.map((s) => `${s.harness} ${s.provider} ${s.reason}`),
    [
      'codex openai harness-missing',
      'claude-code anthropic model-unavailable',
      'opencode anthropic model-unavailable',
      'opencode google authentication-missing',
    ],
  );
  assert.deepEqual(result.ready, []);
});

test('absence from a partial catalog, or no catalog at all, leaves the model unknown: still a candidate', async () => {
  const result = await checkReadiness(
    candidates.slice(1, 2),
    checks({readCatalog: async () => ({complete: false, models: new Set(['other'])})}),
  );
  assert.deepEqual(
    result.ready.map((r) => r.catalog),
    ['unknown'],
  );
  const listed = await checkReadiness(
    candidates.slice(1, 3),
    checks({readCatalog: async () => ({complete: true, models: new Set(['claude-sonnet-4-5'])})}),
  );
  assert.deepEqual(
    listed.ready.map((r) => `${r.harness} ${r.catalog}`),
    ['claude-code listed', 'opencode listed'],
  );
});

test('a catalog error is an error, never an empty list that justifies another choice', async () => {
  const failure = new StratosError('STRATOS_AGENT_CATALOG_INVALID', 'bad catalog');
  await assert.rejects(
    checkReadiness(candidates, checks({readCatalog: async () => Promise.reject(failure)})),
    (error) => error === failure,
  );
});

test('each harness, authentication and catalog is checked once', async () => {
  const calls: string[] = [];
  await checkReadiness([...candidates, ...candidates], checks({}, calls));
  assert.equal(calls.filter((c) => c === 'catalog anthropic').length, 1);
  assert.equal(calls.filter((c) => c === 'installed opencode').length, 1);
});
