// The shipped price table is exactly what the generator makes from the pinned Models.dev snapshot, and a call's
// cost is computed from it for the provider that served the call: hand-computed figures, tiers, local models,
// and unknown usage or prices said to be unknown rather than guessed.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {test} from 'node:test';
import {generateModelPrices} from '../../../scripts/generate-model-prices.ts';
import {findModelsDevSnapshot} from '../../../scripts/models-dev-snapshot.ts';
import {computeCallCost, hasKnownPrice} from '../../../src/providers/pricing/model-cost.ts';
import {modelPriceRevision} from '../../../src/providers/pricing/model-prices.ts';

const repository = resolve(import.meta.dirname, '..', '..', '..');
const snapshot = findModelsDevSnapshot();
// The snapshot lives in the design folder beside the checkout, not in the repository; a clone elsewhere skips it.
const withSnapshot = {
  skip: snapshot === undefined ? 'the pinned Models.dev snapshot is not beside this checkout' : false,
};

test(
  'the committed price table equals a fresh generation from the snapshot, with its revision',
  withSnapshot,
  () => {
    const committed = readFileSync(resolve(repository, 'src/providers/pricing/model-prices.ts'), 'utf8');
    assert.equal(committed, generateModelPrices(snapshot!));
    assert.equal(modelPriceRevision, readFileSync(resolve(snapshot!, 'REVISION'), 'utf8').trim());
  },
);

test('an Anthropic call is priced per token class: uncached input, cache read, cache write, output', () => {
  // claude-sonnet-4-5: $3 input, $15 output, $0.30 cache read, $3.75 cache write per million tokens.
  // Input 1000 includes 200 read from and 100 written to the cache: 700*3 + 200*0.3 + 100*3.75 + 500*15.
  const cost = computeCallCost('anthropic', 'claude-sonnet-4-5-20250929', {
    inputTokens: 1000,
    outputTokens: 500,
    cacheReadInputTokens: 200,
    cacheCreationInputTokens: 100,
  });
  assert.deepEqual(cost, {usd: 0.010035});
});

test('the same model costs what the provider that served it charges', () => {
  const usage = {inputTokens: 1_000_000, outputTokens: 0};
  assert.deepEqual(computeCallCost('openai', 'gpt-5', usage), {usd: 1.25});
  // OpenCode's model ids carry the provider prefix.
  assert.deepEqual(computeCallCost('openai', 'openai/gpt-5', usage), {usd: 1.25});
  assert.deepEqual(computeCallCost('azure', 'gpt-5', usage), {usd: 1.25});
});

test('a call whose input is over a tier size is priced at that tier', () => {
  // gpt-5.4: $2.50 / $15 below 272,000 input tokens, $5 / $22.50 above.
  assert.deepEqual(computeCallCost('openai', 'gpt-5.4', {inputTokens: 100_000, outputTokens: 1_000}), {
    usd: 0.265,
  });
  assert.deepEqual(computeCallCost('openai', 'gpt-5.4', {inputTokens: 300_000, outputTokens: 1_000}), {
    usd: 1.5225,
  });
});

test('reasoning tokens use a reasoning price only where the provider states one', () => {
  // OpenAI bills reasoning as output: 1000 output tokens of which 400 reasoning cost 1000 * $10.
  assert.deepEqual(
    computeCallCost('openai', 'gpt-5', {inputTokens: 0, outputTokens: 1000, reasoningTokens: 400}),
    {usd: 0.01},
  );
});

test('a local Ollama model costs 0; unknown usage, models or cache prices make the cost unknown', () => {
  assert.deepEqual(computeCallCost('ollama', 'qwen3:8b', {}), {usd: 0});
  assert.match(String(computeCallCost('anthropic', 'claude-sonnet-4-5', {outputTokens: 5}).usd), /undefined/);
  const unreported = computeCallCost('anthropic', 'claude-sonnet-4-5', {outputTokens: 5});
  assert.ok('unknown' in unreported && /did not report/.test(unreported.unknown));
  const unpriced = computeCallCost('anthropic', 'claude-imaginary-9', {inputTokens: 1, outputTokens: 1});
  assert.ok(
    'unknown' in unpriced && /no price is known for model 'claude-imaginary-9'/.test(unpriced.unknown),
  );
  const noProvider = computeCallCost('some-gateway', 'gpt-5', {inputTokens: 1, outputTokens: 1});
  assert.ok('unknown' in noProvider);
  // OpenAI states no cache-write price: a reported cache write cannot be priced.
  const cacheWrite = computeCallCost('openai', 'gpt-5', {
    inputTokens: 10,
    outputTokens: 1,
    cacheCreationInputTokens: 5,
  });
  assert.ok('unknown' in cacheWrite && /cache-write/.test(cacheWrite.unknown));
  assert.equal(hasKnownPrice('ollama', undefined), true);
  assert.equal(hasKnownPrice('anthropic', 'claude-sonnet-4-5'), true);
  assert.equal(hasKnownPrice('anthropic', 'claude-imaginary-9'), false);
  assert.equal(hasKnownPrice('anthropic', 'constructor'), false);
});

test('docs/cost.md names the revision the prices were generated from', () => {
  const page = readFileSync(resolve(repository, 'docs', 'cost.md'), 'utf8');
  assert.ok(page.includes(modelPriceRevision), `docs/cost.md names ${modelPriceRevision}`);
});
