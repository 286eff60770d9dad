/**
 * A local server that speaks the Ollama HTTP API as Stratos and the harnesses use it: `/api/version`, `/api/tags`,
 * `/api/show` (capabilities, context length), `/api/chat` and `/api/generate` (streaming NDJSON or one JSON
 * object, `format` JSON schema, `logprobs`/`top_logprobs`) and `/v1/systemone`. Replies are scripted by request
 * content: the script sees the parsed request and how often the same body was seen before (a retry is a repeat).
 * Answers are tokenized deterministically and each answer value gets the top candidates the script gives.
 */
import {createHash} from 'node:crypto';
import {createServer, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export interface ScriptedModel {
  name: string;
  capabilities: string[];
  contextLength?: number;
  family?: string;
}

export interface OllamaRequestRecord {
  method: string;
  path: string;
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
}

export interface OllamaServer {
  url: string;
  requests: OllamaRequestRecord[];
  /** Requests to one path. */
  requestsTo(path: string): OllamaRequestRecord[];
  /** Resolves when a request to `path` has been answered `count` times in total. */
  answered(path: string, count: number): Promise<void>;
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
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const path = (incoming.url ?? '/').split('?')[0]!;
      const key = createHash('sha256').update(`${incoming.method} ${path} ${text}`).digest('hex');
      const repeat = seen.get(key) ?? 0;
      seen.set(key, repeat + 1);
      const record: OllamaRequestRecord = {method: incoming.method ?? 'GET', path, body, repeat};
      requests.push(record);
      void route(record, response, options)
        .catch((error: unknown) => sendJson(response, 500, {error: String(error)}))
        .finally(() => markAnswered(path));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    answered: (path, count) =>
      (answeredCounts.get(path) ?? 0) >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({path, count, resolve})),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function route(
  record: OllamaRequestRecord,
  response: ServerResponse,
  options: OllamaServerOptions,
): Promise<void> {
  const model = (name: unknown) => options.models.find((m) => m.name === name);
  switch (`${record.method} ${record.path}`) {
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

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {'content-type': 'application/json'});
  response.end(JSON.stringify(body));
}
