/**
 * Provider model catalogs, read without inference: Anthropic's `GET /v1/models` (paged with `has_more`/`last_id`)
 * and OpenAI's `GET /v1/models`, at the base URL the harness itself would use. A catalog needs an API key; with a
 * native login only there is none (undefined: availability stays unknown). A listing that ends without a way to
 * page on is partial. A refused, malformed or unreachable catalog is an error naming the provider.
 */
import {StratosError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import type {ModelCatalog} from './check-readiness.ts';

export interface ReadModelCatalogOptions {
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal | undefined;
  /** Per request; default 10 s. */
  timeoutMs?: number;
}

const maxPages = 20;

/** The catalog of `provider`, or undefined when the provider has none Stratos can read. */
export async function readModelCatalog(
  provider: string,
  options: ReadModelCatalogOptions,
): Promise<ModelCatalog | undefined> {
  const {env} = options;
  if (provider === 'anthropic') {
    const key = env.ANTHROPIC_API_KEY ?? '';
    if (key === '') return undefined;
    const base = trimSlash(env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com');
    const headers = {'x-api-key': key, 'anthropic-version': '2023-06-01'};
    const models = new Set<string>();
    let after: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const url = `${base}/v1/models?limit=1000${after === undefined ? '' : `&after_id=${encodeURIComponent(after)}`}`;
      const body = await fetchCatalog(provider, url, headers, options);
      const ids = readIds(provider, body);
      for (const id of ids) models.add(id);
      const more = (body as {has_more?: unknown}).has_more === true;
      const last = (body as {last_id?: unknown}).last_id;
      if (!more) return {complete: true, models};
      if (typeof last !== 'string' || last === '' || last === after) return {complete: false, models};
      after = last;
    }
    return {complete: false, models};
  }
  if (provider === 'openai') {
    const key = env.OPENAI_API_KEY ?? env.CODEX_API_KEY ?? '';
    if (key === '') return undefined;
    const base = trimSlash(env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1');
    const body = await fetchCatalog(provider, `${base}/models`, {authorization: `Bearer ${key}`}, options);
    return {complete: true, models: new Set(readIds(provider, body))};
  }
  return undefined;
}

async function fetchCatalog(
  provider: string,
  url: string,
  headers: Record<string, string>,
  options: ReadModelCatalogOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const where = safeUrl(url);
  let response: Response;
  try {
    response = await fetch(url, {headers, signal});
  } catch (error) {
    throw new StratosError(
      'STRATOS_AGENT_CATALOG_UNREACHABLE',
      `The ${provider} model catalog at ${where} could not be read: ${describeError(error)}. Check the network and the base URL; no other model was chosen instead.`,
      {cause: error, details: {provider, url: where}},
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    const code =
      response.status === 401 || response.status === 403
        ? 'STRATOS_AGENT_CATALOG_DENIED'
        : 'STRATOS_AGENT_CATALOG_UNREACHABLE';
    throw new StratosError(
      code,
      `The ${provider} model catalog at ${where} answered HTTP ${response.status}. ${code === 'STRATOS_AGENT_CATALOG_DENIED' ? 'Check the API key and its permissions' : 'Try again later'}; no other model was chosen instead.`,
      {details: {provider, url: where, status: response.status}},
    );
  }
  try {
    return await response.json();
  } catch (error) {
    throw invalid(provider, where, 'its body is not JSON', error);
  }
}

function readIds(provider: string, body: unknown): string[] {
  const data = (body as {data?: unknown} | null)?.data;
  if (!Array.isArray(data)) throw invalid(provider, undefined, 'it has no "data" list');
  return data.map((entry) => {
    const id = (entry as {id?: unknown} | null)?.id;
    if (typeof id !== 'string') throw invalid(provider, undefined, 'an entry has no string "id"');
    return id;
  });
}

function invalid(provider: string, where: string | undefined, why: string, cause?: unknown): StratosError {
  return new StratosError(
    'STRATOS_AGENT_CATALOG_INVALID',
    `The ${provider} model catalog${where === undefined ? '' : ` at ${where}`} is invalid: ${why}. No other model was chosen instead.`,
    {cause, details: {provider}},
  );
}

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** The URL without query or credentials, for messages. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
