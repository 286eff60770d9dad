// Token counts for the benchmarks with a real tokenizer: gpt-tokenizer's o200k_base (the GPT-4o / GPT-5 family
// encoding). Claude's tokenizer is not published for current models; its counts differ (typically somewhat higher
// for code and JSON), so these figures compare sizes rather than bill a given model.
import {countTokens} from 'gpt-tokenizer/encoding/o200k_base';

export const tokenizerName = 'gpt-tokenizer 4.0.0, o200k_base';

export function tokens(text: string): number {
  return countTokens(text);
}

/** Tokens of a model request body as sent (JSON), without fields that differ per process. */
export function requestTokens(body: unknown): number {
  const copy = {...(body as Record<string, unknown>)};
  for (const key of ['metadata', 'prompt_cache_key', 'client_metadata']) delete copy[key];
  return tokens(normalizeIds(JSON.stringify(copy)));
}

/** Replaces UUIDs, which differ per process, with one fixed word. */
export function normalizeIds(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID');
}
