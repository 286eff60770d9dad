/**
 * The cost of one model call in USD, from the token counts the harness or provider reported and the prices of the
 * provider that served the call (the table generated from the pinned Models.dev snapshot). A local Ollama model
 * costs 0. Unknown usage, an unknown model or a token class without a price makes the cost unknown, with the
 * reason: a cost is never guessed.
 */
import {type ModelPrice, modelPrices, type PriceRow} from './model-prices.ts';

/** Reported token counts of one call; absent counts were not reported. Input includes cached input. */
export interface CallUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cacheReadInputTokens?: number | undefined;
  cacheCreationInputTokens?: number | undefined;
  /** Reasoning tokens, when reported; they are part of the output count. */
  reasoningTokens?: number | undefined;
}

/** A call's computed cost: `usd`, or why it is unknown. */
export type CallCost = {usd: number} | {usd?: undefined; unknown: string};

/** Providers that run models on the user's machine: their calls cost nothing. */
const localProviders = new Set(['ollama']);

/** The prices of `model` on `provider`; the model may carry the provider's prefix (`anthropic/claude-...`). */
export function findModelPrice(provider: string, model: string): ModelPrice | undefined {
  const table = Object.hasOwn(modelPrices, provider) ? modelPrices[provider] : undefined;
  if (table === undefined) return undefined;
  for (const id of [model, model.startsWith(`${provider}/`) ? model.slice(provider.length + 1) : undefined]) {
    if (id !== undefined && Object.hasOwn(table, id)) return table[id];
  }
  return undefined;
}

/** Whether calls of `model` on `provider` have a known price (local models included). */
export function hasKnownPrice(provider: string | undefined, model: string | undefined): boolean {
  if (provider !== undefined && localProviders.has(provider)) return true;
  return provider !== undefined && model !== undefined && findModelPrice(provider, model) !== undefined;
}

/** The cost of one call of `model` served by `provider` with the reported `usage`. */
export function computeCallCost(
  provider: string | undefined,
  model: string | undefined,
  usage: CallUsage,
): CallCost {
  if (provider !== undefined && localProviders.has(provider)) return {usd: 0};
  if (usage.inputTokens === undefined || usage.outputTokens === undefined)
    return {unknown: 'the harness did not report the token usage'};
  if (provider === undefined || model === undefined)
    return {unknown: 'the provider or model that served the call is not known'};
  const price = findModelPrice(provider, model);
  if (price === undefined)
    return {unknown: `no price is known for model '${model}' on provider '${provider}'`};
  const row = selectPriceRow(price, usage.inputTokens);
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheCreationInputTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  const [input, output, cacheReadPrice, cacheWritePrice, reasoningPrice] = row;
  if (cacheRead > 0 && cacheReadPrice === null)
    return {unknown: `no cache-read price is known for model '${model}' on provider '${provider}'`};
  if (cacheWrite > 0 && cacheWritePrice === null)
    return {unknown: `no cache-write price is known for model '${model}' on provider '${provider}'`};
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  // Reasoning tokens are billed as output unless the provider states a reasoning price of its own.
  const separateReasoning = reasoningPrice === null ? 0 : Math.min(reasoning, usage.outputTokens);
  const perMillion =
    uncached * input +
    cacheRead * (cacheReadPrice ?? 0) +
    cacheWrite * (cacheWritePrice ?? 0) +
    (usage.outputTokens - separateReasoning) * output +
    separateReasoning * (reasoningPrice ?? 0);
  return {usd: roundUsd(perMillion / 1_000_000)};
}

/** The base prices, or the highest tier whose context size the call's input exceeds. */
function selectPriceRow(price: ModelPrice, inputTokens: number): PriceRow {
  let row = price[0];
  for (const [size, tier] of price[1] ?? []) if (inputTokens > size) row = tier;
  return row;
}

/** Rounds to a hundred-millionth of a dollar, so sums of float products read as the hand-computed figures. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}
