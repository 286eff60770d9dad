/**
 * A local server that speaks the Ollama HTTP API as Stratos and the harnesses use it: `/api/version`, `/api/tags`,
 * `/api/show` (capabilities, context length), `/api/chat` and `/api/generate` (streaming NDJSON or one JSON
 * object, `format` JSON schema, `logprobs`/`top_logprobs`), `/v1/systemone`, and the OpenAI-compatible endpoints
 * the harnesses call for a local provider: `/v1/responses` (Codex) and `/v1/chat/completions` (OpenCode), streamed
 * by the scripted OpenAI handlers of `../models/` and scripted by conversation state. Replies are scripted by request
 * content: the script sees the parsed request and how often the same body was seen before (a retry is a repeat).
 * Answers are tokenized deterministically and each answer value gets the top candidates the script gives.
 */
import {createHash} from 'node:crypto';
import type {ServerResponse} from 'node:http';
import {answerChatRequest, type ChatScript} from '../models/openai-chat.ts';
import {answerResponsesRequest, type ResponsesScript} from '../models/openai-responses.ts';
import {listenModelServer, type RecordedRequest} from '../models/sse-server.ts';

export interface ScriptedModel {
  name: string;
  capabilities: string[];
  contextLength?: number;
  family?: string;
}

export interface OllamaRequestRecord {
  method: string;
  path: string;
  /** The request headers (to prove what a client did or did not send). */
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies of every shape
  body: any;
  /** How many times the same method, path and body arrived before this one. */
  repeat: number;
}

/** One scripted reply. `status` answers with that error status; otherwise a model answer. */
export type ScriptedReply =
  | {status: number; error?: string; contentType?: string}
  | {
      /** The answer object; its JSON is the message content. */
      answer: Record<string, unknown>;
      /**
       * Top candidates at each field's value, by field: candidate token text (the value without quotes for
       * strings, such as `B`; `true`/`false` for booleans) to probability. The generated value is added when missing.
       */
      candidates?: Record<string, Record<string, number>>;
      /** Leave out `logprobs` (a server or model that cannot return them). */
      withoutLogprobs?: boolean;
      /** Replace the content with this text (a malformed answer). */
      content?: string;
      /** Hold the reply until this promise settles (to cancel mid-request). */
      delay?: Promise<void>;
    };

/** A reply produced by real inference: the content and its tokens exactly as generated. */
export interface RawReply {
  raw: {
    content: string;
    logprobs: {token: string; logprob: number; top_logprobs: {token: string; logprob: number}[]}[];
    promptEvalCount: number;
    evalCount: number;
  };
}

export interface SystemOneReply {
  status?: number;
  // biome-ignore lint/suspicious/noExplicitAny: scripted bodies of every shape
  body?: any;
}

export interface OllamaServerOptions {
  models: ScriptedModel[];
  version?: string;
  /** Scripted replies, or real inference (see llama-backend.ts) returning a RawReply. */
  chat?: (request: OllamaRequestRecord) => ScriptedReply | Promise<ScriptedReply | RawReply>;
  systemOne?: (request: OllamaRequestRecord) => SystemOneReply;
  /**
   * `POST /v1/responses` (Ollama's OpenAI-compatible Responses API, which Codex calls for a local provider), answered
   * by the scripted OpenAI Responses handler.
   */
  responses?: ResponsesScript;
  /** `POST /v1/chat/completions` (what OpenCode calls), answered by the scripted chat completions handler. */
  chatCompletions?: ChatScript;
}

export interface OllamaServer {
  url: string;
  requests: OllamaRequestRecord[];
  /** Requests to one path. */
  requestsTo(path: string): OllamaRequestRecord[];
  /** Resolves when a request to `path` has been answered `count` times in total. */
  answered(path: string, count: number): Promise<void>;
  /** The OpenAI-compatible model requests the scripts answered (`/v1/responses`, `/v1/chat/completions`). */
  modelRequests(): RecordedRequest[];
  /** Model streams the client left before they ended (cancellation evidence). */
  readonly abortedStreams: number;
  close(): Promise<void>;
}

export async function startOllamaServer(options: OllamaServerOptions): Promise<OllamaServer> {
  const requests: OllamaRequestRecord[] = [];
  const seen = new Map<string, number>();
  const answeredCounts = new Map<string, number>();
  const waiters: {path: string; count: number; resolve: () => void}[] = [];
  const markAnswered = (path: string) => {
    const count = (answeredCounts.get(path) ?? 0) + 1;
    answeredCounts.set(path, count);
    for (const waiter of waiters.filter((w) => w.path === path && w.count <= count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  // The shared model server records bodies, streams SSE and serves `/__test/open-streams` for cancellation tests.
  const server = await listenModelServer(async (request, response, isModel) => {
    const path = request.path.split('?')[0]!;
    const text = request.body === undefined ? '' : JSON.stringify(request.body);
    const key = createHash('sha256').update(`${request.method} ${path} ${text}`).digest('hex');
    const repeat = seen.get(key) ?? 0;
    seen.set(key, repeat + 1);
    const record: OllamaRequestRecord = {
      method: request.method,
      path,
      headers: request.headers,
      body: request.body,
      repeat,
    };
    requests.push(record);
    try {
      await route(record, response, options, (handler) => handler(request, response, isModel));
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, {error: String(error)});
    } finally {
      markAnswered(path);
    }
  });
  return {
    url: server.url,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    answered: (path, count) =>
      (answeredCounts.get(path) ?? 0) >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({path, count, resolve})),
    modelRequests: () => server.modelRequests(),
    get abortedStreams() {
      return server.abortedStreams;
    },
    close: () => server.close(),
  };
}

type OpenAiHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  isModel: (value: boolean) => void,
) => Promise<void>;

async function route(
  record: OllamaRequestRecord,
  response: ServerResponse,
  options: OllamaServerOptions,
  delegate: (handler: OpenAiHandler) => Promise<void>,
): Promise<void> {
  const model = (name: unknown) => options.models.find((m) => m.name === name);
  switch (`${record.method} ${record.path}`) {
    case 'POST /v1/responses':
    case 'POST /v1/chat/completions': {
      // As Ollama answers its OpenAI-compatible endpoints: an unknown model is a 404, tools for a model without
      // the tools capability a 400; otherwise the scripted OpenAI handler streams the reply.
      const found = model(record.body?.model);
      if (found === undefined)
        return sendOpenAiError(
          response,
          404,
          `model "${record.body?.model}" not found, try pulling it first`,
        );
      const tools = Array.isArray(record.body?.tools) && record.body.tools.length > 0;
      if (tools && !found.capabilities.includes('tools'))
        return sendOpenAiError(response, 400, `${found.name} does not support tools`);
      const script = record.path === '/v1/responses' ? options.responses : options.chatCompletions;
      if (script === undefined) return sendOpenAiError(response, 500, `no script for ${record.path}`);
      return delegate((request, res, isModel) =>
        record.path === '/v1/responses'
          ? answerResponsesRequest(options.responses!, request, res, isModel)
          : answerChatRequest(options.chatCompletions!, request, res, isModel),
      );
    }
    case 'GET /api/version':
      return sendJson(response, 200, {version: options.version ?? '0.40.12'});
    case 'GET /api/tags':
      return sendJson(response, 200, {
        models: options.models.map((m) => ({
          name: m.name,
          model: m.name,
          size: 1000,
          digest: 'sha256:0',
          details: {
            format: 'gguf',
            family: m.family ?? 'test',
            parameter_size: '1M',
            quantization_level: 'F16',
          },
        })),
      });
    case 'POST /api/show': {
      const found = model(record.body?.model);
      if (found === undefined)
        return sendJson(response, 404, {error: `model '${record.body?.model}' not found`});
      const family = found.family ?? 'test';
      return sendJson(response, 200, {
        capabilities: found.capabilities,
        details: {family},
        model_info: {
          'general.architecture': family,
          ...(found.contextLength === undefined ? {} : {[`${family}.context_length`]: found.contextLength}),
        },
      });
    }
    case 'POST /api/chat':
    case 'POST /api/generate':
      return answerModel(record, response, options, model(record.body?.model) !== undefined);
    case 'POST /v1/systemone': {
      if (model(record.body?.model) === undefined) return sendJson(response, 404, {error: 'model not found'});
      const reply = options.systemOne?.(record) ?? {status: 500, body: {error: 'no systemone script'}};
      return sendJson(response, reply.status ?? 200, reply.body ?? {});
    }
    default:
      return sendJson(response, 404, {error: `no route ${record.method} ${record.path}`});
  }
}

async function answerModel(
  record: OllamaRequestRecord,
  response: ServerResponse,
  options: OllamaServerOptions,
  installed: boolean,
): Promise<void> {
  if (!installed) return sendJson(response, 404, {error: `model '${record.body?.model}' not found`});
  const reply = (await options.chat?.(record)) ?? {status: 500, error: 'no chat script'};
  if ('raw' in reply) return sendRaw(record, response, reply);
  if ('status' in reply) {
    if (reply.contentType === 'text/plain') {
      response.writeHead(reply.status, {'content-type': 'text/plain'});
      response.end(reply.error ?? 'error');
      return;
    }
    return sendJson(response, reply.status, {error: reply.error ?? `scripted status ${reply.status}`});
  }
  if (reply.delay !== undefined) await reply.delay;
  // A schema-constrained model writes only the fields of its format, in the schema's order.
  const fields = record.body?.format?.properties as Record<string, unknown> | undefined;
  const answer =
    fields === undefined
      ? reply.answer
      : Object.fromEntries(
          Object.keys(fields).flatMap((name) => (name in reply.answer ? [[name, reply.answer[name]]] : [])),
        );
  const content = reply.content ?? JSON.stringify(answer);
  const tokens = tokenize(answer, reply.candidates ?? {}, record.body?.top_logprobs ?? 0);
  const wantLogprobs =
    record.body?.logprobs === true && reply.withoutLogprobs !== true && reply.content === undefined;
  const isChat = record.path === '/api/chat';
  const base = {model: record.body.model, created_at: new Date().toISOString()};
  const final = {
    ...base,
    done: true,
    done_reason: 'stop',
    total_duration: 1000,
    load_duration: 10,
    prompt_eval_count: 42,
    prompt_eval_duration: 100,
    eval_count: tokens.length,
    eval_duration: 100,
  };
  if (record.body?.stream === false) {
    return sendJson(response, 200, {
      ...final,
      ...(isChat ? {message: {role: 'assistant', content}} : {response: content}),
      ...(wantLogprobs ? {logprobs: tokens} : {}),
    });
  }
  response.writeHead(200, {'content-type': 'application/x-ndjson'});
  const pieces = reply.content === undefined ? tokens : [{token: content, logprob: 0, top_logprobs: []}];
  for (const token of pieces) {
    const chunk = isChat ? {message: {role: 'assistant', content: token.token}} : {response: token.token};
    response.write(
      `${JSON.stringify({...base, ...chunk, done: false, ...(wantLogprobs ? {logprobs: [token]} : {})})}\n`,
    );
  }
  response.end(
    `${JSON.stringify({...final, ...(isChat ? {message: {role: 'assistant', content: ''}} : {response: ''})})}\n`,
  );
}

function sendRaw(record: OllamaRequestRecord, response: ServerResponse, reply: RawReply): void {
  const isChat = record.path === '/api/chat';
  const {content, logprobs, promptEvalCount, evalCount} = reply.raw;
  sendJson(response, 200, {
    model: record.body.model,
    created_at: new Date().toISOString(),
    ...(isChat ? {message: {role: 'assistant', content}} : {response: content}),
    done: true,
    done_reason: 'stop',
    prompt_eval_count: promptEvalCount,
    eval_count: evalCount,
    ...(record.body?.logprobs === true ? {logprobs} : {}),
  });
}

interface Token {
  token: string;
  logprob: number;
  top_logprobs: {token: string; logprob: number}[];
}

/**
 * `{"name":` is one token; a string value is `"X` then `"` (the quote merged with the value, as BPE tokenizers
 * often do); other values are one token; separators and the closing brace are their own tokens.
 */
function tokenize(
  answer: Record<string, unknown>,
  candidates: Record<string, Record<string, number>>,
  top: number,
): Token[] {
  const tokens: Token[] = [];
  const push = (token: string, alternatives: Record<string, number> = {}) => {
    const listed = Object.entries(alternatives).map(([text, p]) => ({token: text, logprob: Math.log(p)}));
    const own = listed.find((c) => c.token === token);
    const logprob = own?.logprob ?? 0;
    const all = own === undefined ? [{token, logprob}, ...listed] : listed;
    tokens.push({token, logprob, top_logprobs: all.sort((a, b) => b.logprob - a.logprob).slice(0, top)});
  };
  const entries = Object.entries(answer);
  entries.forEach(([name, value], index) => {
    push(`${index === 0 ? '{' : ','}${JSON.stringify(name)}:`);
    const given = candidates[name] ?? {};
    if (typeof value === 'string') {
      const merged = Object.fromEntries(Object.entries(given).map(([text, p]) => [`"${text}`, p]));
      push(`"${value}`, merged);
      push('"');
    } else {
      push(JSON.stringify(value), given);
    }
  });
  push('}');
  return tokens;
}

function sendOpenAiError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, {error: {message, type: 'api_error', param: null, code: null}});
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {'content-type': 'application/json'});
  response.end(JSON.stringify(body));
}
