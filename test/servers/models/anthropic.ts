/**
 * A scripted Anthropic Messages API (`POST /v1/messages`, SSE streaming) for driving the real Claude Code binary.
 * The script sees the conversation state of each request (the last user message, tool results, offered tools)
 * and answers with text, a tool call or structured output; it never counts requests.
 *
 * ```ts
 * const server = await startAnthropicServer((turn) =>
 *   turn.toolResults.length > 0 ? {text: 'done'} : toolCall(turn, 'mcp__counter__echo', {text: 'hi'}));
 * // ANTHROPIC_BASE_URL=server.url
 * ```
 */
import {listenModelServer, type ModelServer, type RecordedRequest, writeSse} from './sse-server.ts';

export interface AnthropicTurn {
  // biome-ignore lint/suspicious/noExplicitAny: the Messages API body
  body: any;
  /** Text of the last user message (tool results excluded; Claude Code merges consecutive user messages). */
  userText: string;
  /** The last text block of the last user message: the newest prompt. */
  lastText: string;
  /** Tool results in the last user message. */
  toolResults: {toolUseId: string; toolName: string | undefined; content: string; isError: boolean}[];
  /** Names of the tools offered with full definitions. */
  toolNames: string[];
  /** The system prompt as one string. */
  systemText: string;
  /** All text of all messages (to check that a continued conversation carries earlier turns). */
  transcript: string;
}

/**
 * A response's usage as the Messages API reports it: `input_tokens` is the uncached input only, beside the cache
 * reads and writes; `message_start` carries it and `message_delta` the final output count. Default 10 in, 5 out.
 */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type AnthropicReply = (
  | {
      text: string /** Split the text into this many deltas. */;
      chunks?: number /** Pause before each delta. */;
      pauseMs?: number;
    }
  | {toolUse: {name: string; input: Record<string, unknown>}; text?: string}
  | {/** Keep the stream open after message_start until the client goes away. */ hang: true}
  | {status: number; error: string /** The error's `type`; default `api_error`. */; errorType?: string}
) & {/** The usage this response reports. */ usage?: AnthropicUsage};

export type AnthropicScript = (
  turn: AnthropicTurn,
  request: RecordedRequest,
) => AnthropicReply | Promise<AnthropicReply>;

export interface AnthropicServer extends ModelServer {
  /** Parsed turns of the model requests, in arrival order. */
  turns(): AnthropicTurn[];
}

let nextId = 1;

export interface ModelCatalogOptions {
  /** `GET /v1/models` lists these (a complete listing); without it the catalog path is not found. */
  models?: string[];
  /** The listing says there is more but gives no cursor to page on: a partial catalog. */
  partial?: boolean;
}

export async function startAnthropicServer(
  script: AnthropicScript,
  options: ModelCatalogOptions = {},
): Promise<AnthropicServer> {
  const server = await listenModelServer(async (request, response, isModel) => {
    if (request.method === 'HEAD' || request.path.startsWith('/api/hello')) {
      response.writeHead(200).end();
      return;
    }
    if (request.method === 'GET' && request.path.startsWith('/v1/models') && options.models !== undefined) {
      const data = options.models.map((id) => ({type: 'model', id}));
      response
        .writeHead(200, {'content-type': 'application/json'})
        .end(
          JSON.stringify(
            options.partial === true ? {data, has_more: true, last_id: null} : {data, has_more: false},
          ),
        );
      return;
    }
    if (request.method !== 'POST' || !request.path.startsWith('/v1/messages')) {
      response
        .writeHead(404, {'content-type': 'application/json'})
        .end(JSON.stringify({error: {message: 'not found'}}));
      return;
    }
    if (request.path.startsWith('/v1/messages/count_tokens')) {
      response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({input_tokens: 10}));
      return;
    }
    isModel(true);
    const turn = parseAnthropicTurn(request.body);
    const reply = await script(turn, request);
    if ('status' in reply) {
      response.writeHead(reply.status, {'content-type': 'application/json'}).end(
        JSON.stringify({
          type: 'error',
          error: {type: reply.errorType ?? 'api_error', message: reply.error},
        }),
      );
      return;
    }
    await writeSse(response, messageEvents(request.body?.model ?? 'claude-test', reply));
  });
  return {
    ...server,
    get abortedStreams() {
      return server.abortedStreams;
    },
    turns: () => server.modelRequests().map((r) => parseAnthropicTurn(r.body)),
  };
}

/**
 * Calls `name`, playing Claude Code's deferred-tool step first: when the tool is offered only by name, the reply
 * is a `ToolSearch` call that loads it.
 */
export function toolCall(turn: AnthropicTurn, name: string, input: Record<string, unknown>): AnthropicReply {
  const searched = resultOf(turn, 'ToolSearch') !== undefined;
  if (!turn.toolNames.includes(name) && (searched || !turn.toolNames.includes('ToolSearch'))) {
    // Never loop: a tool the harness did not load after one search (or never offered) fails the test legibly.
    return {text: `TOOL NOT OFFERED: ${name}; offered: ${turn.toolNames.join(', ')}`};
  }
  if (!turn.toolNames.includes(name)) {
    return {toolUse: {name: 'ToolSearch', input: {query: `select:${name}`, max_results: 5}}};
  }
  return {toolUse: {name, input}};
}

/** The result of the last call of `name` in the last user message, if any. */
export function resultOf(
  turn: AnthropicTurn,
  name: string,
): AnthropicTurn['toolResults'][number] | undefined {
  return turn.toolResults.find((result) => result.toolName === name);
}

/** True when the request is Claude Code's main conversation (it offers tools), not a side request. */
export function isMainTurn(turn: AnthropicTurn): boolean {
  return turn.toolNames.length > 0;
}

export function parseAnthropicTurn(body: unknown): AnthropicTurn {
  // biome-ignore lint/suspicious/noExplicitAny: the Messages API body
  const b = (body ?? {}) as any;
  const messages: unknown[] = Array.isArray(b.messages) ? b.messages : [];
  const last = [...messages].reverse().find((m) => (m as {role?: string}).role === 'user') as
    | {content: unknown}
    | undefined;
  const blocks = contentBlocks(last?.content);
  const textOf = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : contentBlocks(content)
          .map((block) => (block.type === 'text' ? String(block.text) : ''))
          .join('');
  const toolUseNames = new Map<string, string>();
  for (const message of messages) {
    for (const block of contentBlocks((message as {content: unknown}).content)) {
      if (block.type === 'tool_use') toolUseNames.set(String(block.id), String(block.name));
    }
  }
  return {
    body: b,
    userText: blocks
      .filter((block) => block.type === 'text')
      .map((block) => String(block.text))
      .join('\n'),
    lastText: String(blocks.filter((block) => block.type === 'text').at(-1)?.text ?? ''),
    toolResults: blocks
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        toolUseId: String(block.tool_use_id),
        toolName: toolUseNames.get(String(block.tool_use_id)),
        content: textOf(block.content),
        isError: block.is_error === true,
      })),
    toolNames: (Array.isArray(b.tools) ? b.tools : []).map((tool: {name: string}) => tool.name),
    systemText: typeof b.system === 'string' ? b.system : textOf(b.system),
    transcript: messages
      .map((m) => {
        const content = (m as {content: unknown}).content;
        return typeof content === 'string'
          ? content
          : contentBlocks(content)
              .map((x) => JSON.stringify(x))
              .join('\n');
      })
      .join('\n'),
  };
}

function contentBlocks(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{type: 'text', text: content}];
  return Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
}

function messageEvents(model: string, reply: Exclude<AnthropicReply, {status: number}>) {
  const id = `msg_${nextId++}`;
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...reply.usage,
  };
  const events: {event: string; data: unknown; pauseMs?: number}[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    },
  ];
  if ('hang' in reply) {
    events.push({event: 'ping', data: {type: 'ping'}, pauseMs: Number.POSITIVE_INFINITY});
    return events;
  }
  let index = 0;
  const text = 'text' in reply && reply.text !== undefined ? reply.text : undefined;
  if (text !== undefined) {
    const chunks = 'chunks' in reply && reply.chunks !== undefined ? reply.chunks : 1;
    const size = Math.max(1, Math.ceil(text.length / chunks));
    events.push({
      event: 'content_block_start',
      data: {type: 'content_block_start', index, content_block: {type: 'text', text: ''}},
    });
    for (let start = 0; start < text.length || start === 0; start += size) {
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: {type: 'text_delta', text: text.slice(start, start + size)},
        },
        ...('pauseMs' in reply && reply.pauseMs !== undefined ? {pauseMs: reply.pauseMs} : {}),
      });
      if (text.length === 0) break;
    }
    events.push({event: 'content_block_stop', data: {type: 'content_block_stop', index}});
    index += 1;
  }
  let stopReason = 'end_turn';
  if ('toolUse' in reply) {
    stopReason = 'tool_use';
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: {type: 'tool_use', id: `toolu_${nextId++}`, name: reply.toolUse.name, input: {}},
      },
    });
    events.push({
      event: 'content_block_delta',
      data: {
        type: 'content_block_delta',
        index,
        delta: {type: 'input_json_delta', partial_json: JSON.stringify(reply.toolUse.input)},
      },
    });
    events.push({event: 'content_block_stop', data: {type: 'content_block_stop', index}});
  }
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: {stop_reason: stopReason, stop_sequence: null},
      usage: {output_tokens: usage.output_tokens},
    },
  });
  events.push({event: 'message_stop', data: {type: 'message_stop'}});
  return events;
}
