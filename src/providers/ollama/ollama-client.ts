/**
 * The one Ollama client of Stratos (agents and decisions share it): the official `ollama` package for the HTTP
 * API, bound to one resolved endpoint. Each call takes an AbortSignal; a server that does not answer becomes
 * STRATOS_OLLAMA_UNREACHABLE and an error status STRATOS_OLLAMA_REQUEST_FAILED (its status in `details.status`),
 * so callers can tell transport failures from answers. The package loads on first use.
 */
import type {ChatRequest, ChatResponse, SystemOneRequest, SystemOneResponse} from 'ollama/browser';
import {StratosError} from '../../errors/index.ts';
import {type OllamaEndpoint, resolveOllamaEndpoint} from './resolve-endpoint.ts';

export type {ChatRequest, ChatResponse, SystemOneRequest, SystemOneResponse};

/** One installed model as `/api/tags` lists it. */
export interface OllamaModelSummary {
  name: string;
  size?: number;
  parameterSize?: string;
  quantization?: string;
}

/** What `/api/show` advertises about a model. */
export interface OllamaModelInfo {
  name: string;
  /** `completion`, `tools`, `thinking`, `vision`, `embedding`, `decision` ... as the server lists them. */
  capabilities: string[];
  /** `<architecture>.context_length` of the model metadata; the loaded context may be smaller. */
  contextLength?: number;
}

export interface OllamaClient {
  readonly endpoint: OllamaEndpoint;
  /** `/api/version`. */
  version(signal?: AbortSignal): Promise<string>;
  /** `/api/tags`: the installed models. */
  listModels(signal?: AbortSignal): Promise<OllamaModelSummary[]>;
  /** `/api/show`; undefined when the model is not installed (404). */
  showModel(model: string, signal?: AbortSignal): Promise<OllamaModelInfo | undefined>;
  /** `/api/chat` without streaming. */
  chat(request: Omit<ChatRequest, 'stream'>, signal?: AbortSignal): Promise<ChatResponse>;
  /** `/v1/systemone`: Ollama's own decision API for models with the `decision` capability. */
  systemOne(request: SystemOneRequest, signal?: AbortSignal): Promise<SystemOneResponse>;
}

type OllamaPackage = typeof import('ollama/browser');
let loading: Promise<OllamaPackage> | undefined;

/**
 * A client for the endpoint `baseUrl`, else `OLLAMA_HOST`, else http://127.0.0.1:11434.
 * @throws StratosError STRATOS_OLLAMA_ENDPOINT_INVALID
 */
export function createOllamaClient(options: {baseUrl?: string; env?: NodeJS.ProcessEnv} = {}): OllamaClient {
  const endpoint = resolveOllamaEndpoint(options);
  const call = async <T>(
    label: string,
    signal: AbortSignal | undefined,
    fn: (client: InstanceType<OllamaPackage['Ollama']>) => Promise<T>,
  ): Promise<T> => {
    loading ??= import('ollama/browser');
    const {Ollama} = await loading;
    const client = new Ollama({host: endpoint.url, fetch: boundFetch(endpoint, label, signal)});
    try {
      return await fn(client);
    } catch (error) {
      throw toClientError(error, endpoint, label, signal);
    }
  };
  return {
    endpoint,
    version: (signal) => call('/api/version', signal, async (client) => (await client.version()).version),
    listModels: (signal) =>
      call('/api/tags', signal, async (client) =>
        ((await client.list()).models ?? []).map((model) => ({
          name: model.name,
          ...(typeof model.size === 'number' ? {size: model.size} : {}),
          ...(model.details?.parameter_size ? {parameterSize: model.details.parameter_size} : {}),
          ...(model.details?.quantization_level ? {quantization: model.details.quantization_level} : {}),
        })),
      ),
    showModel: async (model, signal) => {
      try {
        return await call('/api/show', signal, async (client) =>
          toModelInfo(model, await client.show({model})),
        );
      } catch (error) {
        if (error instanceof StratosError && error.details?.status === 404) return undefined;
        throw error;
      }
    },
    chat: (request, signal) =>
      call('/api/chat', signal, (client) => client.chat({...request, stream: false})),
    systemOne: (request, signal) => call('/v1/systemone', signal, (client) => client.systemone(request)),
  };
}

function toModelInfo(name: string, shown: unknown): OllamaModelInfo {
  const record = (shown ?? {}) as {capabilities?: unknown; model_info?: unknown};
  const capabilities = Array.isArray(record.capabilities)
    ? record.capabilities.filter((c): c is string => typeof c === 'string')
    : [];
  let contextLength: number | undefined;
  if (typeof record.model_info === 'object' && record.model_info !== null) {
    for (const [key, value] of Object.entries(record.model_info)) {
      if (key.endsWith('.context_length') && typeof value === 'number') contextLength = value;
    }
  }
  return {name, capabilities, ...(contextLength === undefined ? {} : {contextLength})};
}

/**
 * The fetch the package uses: the caller's signal on every request, and error bodies that are not JSON turned
 * into JSON (the package otherwise logs to the console while reading them).
 */
function boundFetch(endpoint: OllamaEndpoint, label: string, signal: AbortSignal | undefined): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, {...init, ...(signal === undefined ? {} : {signal})});
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // A refused connection on this machine means no server is listening: waiting will not start one.
      const refusedLocally = causeCode(error) === 'ECONNREFUSED' && isLoopbackUrl(endpoint.url);
      throw new StratosError(
        'STRATOS_OLLAMA_UNREACHABLE',
        `The Ollama server at ${endpoint.url} (from ${endpoint.source}) did not answer ${label}: ${causeText(error)}. Start it with 'ollama serve' or point baseUrl or OLLAMA_HOST at a running server; no other endpoint was tried.`,
        {
          cause: error,
          details: {
            endpoint: endpoint.url,
            source: endpoint.source,
            request: label,
            ...(refusedLocally ? {refusedLocally: true} : {}),
          },
        },
      );
    }
    if (response.ok || response.headers.get('content-type')?.includes('application/json')) return response;
    const text = await response.text().catch(() => '');
    return new Response(JSON.stringify({error: text.trim() || response.statusText}), {
      status: response.status,
      statusText: response.statusText,
      headers: {'content-type': 'application/json'},
    });
  };
}

function toClientError(
  error: unknown,
  endpoint: OllamaEndpoint,
  label: string,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof StratosError) return error;
  const status = (error as {status_code?: unknown}).status_code;
  if (typeof status === 'number') {
    return new StratosError(
      'STRATOS_OLLAMA_REQUEST_FAILED',
      `The Ollama server at ${endpoint.url} answered ${label} with status ${status}: ${causeText(error)}`,
      {cause: error, details: {endpoint: endpoint.url, request: label, status}},
    );
  }
  // A body that is not the JSON the API promises, or a stream cut short.
  return new StratosError(
    'STRATOS_OLLAMA_UNREACHABLE',
    `The Ollama server at ${endpoint.url} did not complete ${label}: ${causeText(error)}`,
    {cause: error, details: {endpoint: endpoint.url, request: label}},
  );
}

function causeCode(error: unknown): string | undefined {
  const code = (error as {cause?: {code?: unknown}} | undefined)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** 127.0.0.0/8, `localhost` and `::1`: a server on this machine. */
function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as {cause?: {code?: unknown; message?: unknown}}).cause;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return `${error.message}${code}`;
}
