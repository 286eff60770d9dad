/**
 * A scripted OpenAI Responses API (`POST /v1/responses`, SSE) for driving the real Codex binary. Like the
 * Anthropic server, the script decides from conversation state (does the input end with a tool result?).
 *
 * The minimal stream Codex accepts is `response.output_item.done` (the item) then `response.completed`.
 * MCP tools are called in a namespace: `{type: 'function_call', namespace: 'mcp__<server>', name: '<tool>'}`.
 */
import type {ServerResponse} from 'node:http';
import {listenModelServer, type ModelServer, type RecordedRequest, writeSse} from './sse-server.ts';

export interface ResponsesTurn {
  // biome-ignore lint/suspicious/noExplicitAny: the Responses API body
  body: any;
  /** Text of the last user message. */
  userText: string;
  /** Outputs of function calls that come after the last user message. */
  toolResults: {callId: string; output: string}[];
  /** Tool names offered (namespaced MCP tools as `mcp__<server>__<tool>`). */
  toolNames: string[];
  instructions: string;
  /** Every input item's text, joined (to check that a continued conversation carries earlier turns). */
  transcript: string;
}

/**
 * A response's usage as the Responses API reports it: `input` includes `cached` (input_tokens_details) and
 * `output` includes `reasoning` (output_tokens_details). Default 10 in, 5 out, none cached or reasoning.
 */
export interface ResponsesUsage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
}

export type ResponsesReply = (
  | {text: string; pauseMs?: number}
  | {toolCall: {name: string; namespace?: string; arguments: Record<string, unknown>}}
  | {hang: true}
  | {status: number; error: string}
) & {/** The usage this response reports. */ usage?: ResponsesUsage};

export type ResponsesScript = (
  turn: ResponsesTurn,
  request: RecordedRequest,
) => ResponsesReply | Promise<ResponsesReply>;

export interface ResponsesServer extends ModelServer {
  turns(): ResponsesTurn[];
}

let nextId = 1;

/**
 * Calls MCP tool `tool` of `server` when this request offers it. A request without it gets text naming the tools
 * it did offer, so a test whose tool never reached the model fails on that, not on what the harness makes of a
 * call to a tool it does not have.
 */
export function mcpToolCall(
  turn: ResponsesTurn,
  server: string,
  tool: string,
  args: Record<string, unknown>,
): ResponsesReply {
  if (!turn.toolNames.includes(`mcp__${server}__${tool}`))
    return {text: `TOOL NOT OFFERED: mcp__${server}__${tool}; offered: ${turn.toolNames.join(', ')}`};
  return {toolCall: {name: tool, namespace: `mcp__${server}`, arguments: args}};
}

export async function startResponsesServer(
  script: ResponsesScript,
  options: {/** What `GET /v1/models` lists; default none. */ models?: string[]} = {},
): Promise<ResponsesServer> {
  const server = await listenModelServer(async (request, response, isModel) => {
    if (request.method === 'GET' && request.path.startsWith('/v1/models')) {
      const data = (options.models ?? []).map((id) => ({id, object: 'model'}));
      response
        .writeHead(200, {'content-type': 'application/json'})
        .end(JSON.stringify({object: 'list', data}));
      return;
    }
    if (request.method !== 'POST' || !request.path.startsWith('/v1/responses')) {
      response
        .writeHead(404, {'content-type': 'application/json'})
        .end(JSON.stringify({error: {message: 'not found'}}));
      return;
    }
    await answerResponsesRequest(script, request, response, isModel);
  });
  return {
    ...server,
    get abortedStreams() {
      return server.abortedStreams;
    },
    turns: () => server.modelRequests().map((r) => parseResponsesTurn(r.body)),
  };
}

/**
 * Answers one `POST .../responses` request from the script: the route of this server, also mounted by the scripted
 * Ollama server at `/v1/responses` (Codex on a local Ollama provider).
 */
export async function answerResponsesRequest(
  script: ResponsesScript,
  request: RecordedRequest,
  response: ServerResponse,
  isModel: (value: boolean) => void,
): Promise<void> {
  isModel(true);
  const turn = parseResponsesTurn(request.body);
  const reply = await script(turn, request);
  if ('status' in reply) {
    response
      .writeHead(reply.status, {'content-type': 'application/json'})
      .end(JSON.stringify({error: {message: reply.error, type: 'server_error'}}));
    return;
  }
  const id = `resp_${nextId++}`;
  const created = {
    event: 'response.created',
    data: {type: 'response.created', response: {id, status: 'in_progress'}},
  };
  if ('hang' in reply) {
    await writeSse(response, [
      created,
      {event: 'keepalive', data: {type: 'keepalive'}, pauseMs: Number.POSITIVE_INFINITY},
    ]);
    return;
  }
  const item =
    'text' in reply
      ? {
          type: 'message',
          role: 'assistant',
          id: `msg_${nextId++}`,
          status: 'completed',
          content: [{type: 'output_text', text: reply.text, annotations: []}],
        }
      : {
          type: 'function_call',
          id: `fc_${nextId++}`,
          call_id: `call_${nextId++}`,
          name: reply.toolCall.name,
          ...(reply.toolCall.namespace === undefined ? {} : {namespace: reply.toolCall.namespace}),
          arguments: JSON.stringify(reply.toolCall.arguments),
          status: 'completed',
        };
  await writeSse(response, [
    created,
    {
      event: 'response.output_item.done',
      data: {type: 'response.output_item.done', output_index: 0, item},
      ...('pauseMs' in reply && reply.pauseMs !== undefined ? {pauseMs: reply.pauseMs} : {}),
    },
    {
      event: 'response.completed',
      data: {
        type: 'response.completed',
        response: {
          id,
          status: 'completed',
          usage: responsesUsage(reply.usage ?? {input: 10, output: 5}),
        },
      },
    },
  ]);
}

function responsesUsage(usage: ResponsesUsage) {
  return {
    input_tokens: usage.input,
    input_tokens_details: {cached_tokens: usage.cached ?? 0},
    output_tokens: usage.output,
    output_tokens_details: {reasoning_tokens: usage.reasoning ?? 0},
    total_tokens: usage.input + usage.output,
  };
}

export function parseResponsesTurn(body: unknown): ResponsesTurn {
  // biome-ignore lint/suspicious/noExplicitAny: the Responses API body
  const b = (body ?? {}) as any;
  const input: Record<string, unknown>[] = Array.isArray(b.input) ? b.input : [];
  const isUser = (item: Record<string, unknown>) => item.type === 'message' && item.role === 'user';
  let lastUser = -1;
  input.forEach((item, index) => {
    if (isUser(item)) lastUser = index;
  });
  const textOf = (item: Record<string, unknown>): string => {
    const content = item.content;
    if (typeof content === 'string') return content;
    if (!Array.isArray(content))
      return typeof item.output === 'string'
        ? item.output
        : JSON.stringify(item.output ?? item.arguments ?? '');
    return content.map((part: {text?: string}) => part.text ?? '').join('');
  };
  const toolNames: string[] = [];
  for (const tool of Array.isArray(b.tools) ? b.tools : []) {
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
      for (const inner of tool.tools) toolNames.push(`${tool.name}__${inner.name}`);
    } else toolNames.push(tool.name ?? tool.type);
  }
  return {
    body: b,
    userText: lastUser >= 0 ? textOf(input[lastUser]!) : '',
    toolResults: input
      .slice(lastUser + 1)
      .filter((item) => item.type === 'function_call_output')
      .map((item) => ({
        callId: String(item.call_id),
        output: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
      })),
    toolNames,
    instructions: typeof b.instructions === 'string' ? b.instructions : '',
    transcript: input.map(textOf).join('\n'),
  };
}
