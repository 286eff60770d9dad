/**
 * A scripted OpenAI chat completions API (`POST /v1/chat/completions`, SSE) for driving the real OpenCode binary
 * through a custom `@ai-sdk/openai-compatible` provider. Like the other scripted servers it decides from
 * conversation state (the newest user message, tool results after it), never from request counts.
 *
 * A stream is `chat.completion.chunk` deltas (text, or one `tool_calls` entry), a last chunk with `finish_reason`
 * and `usage`, then `data: [DONE]`.
 */
import type {ServerResponse} from 'node:http';
import {listenModelServer, type ModelServer, type RecordedRequest, writeSse} from './sse-server.ts';

export interface ChatTurn {
  // biome-ignore lint/suspicious/noExplicitAny: the chat completions body
  body: any;
  /** The model named in the request. */
  model: string;
  /** Text of the last user message. */
  userText: string;
  /** Text of the system messages, joined. */
  systemText: string;
  /** Tool results after the last user message, with the name of the call they answer. */
  toolResults: {callId: string; name: string; output: string}[];
  /** Function tool names offered. */
  toolNames: string[];
  /** Every message's text, joined. */
  transcript: string;
}

/**
 * A completion's usage as the chat completions API reports it: `prompt` includes `cached`
 * (prompt_tokens_details) and `completion` includes `reasoning` (completion_tokens_details). Default 10 and 5.
 */
export interface ChatUsage {
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

export type ChatReply = (
  | {text: string; pauseMs?: number}
  | {toolCall: {name: string; arguments: Record<string, unknown>}}
  | {hang: true}
  | {status: number; error: string; code?: string; type?: string; retryAfterMs?: number}
) & {/** The usage this completion reports. */ usage?: ChatUsage};

export type ChatScript = (turn: ChatTurn, request: RecordedRequest) => ChatReply | Promise<ChatReply>;

export interface ChatServer extends ModelServer {
  turns(): ChatTurn[];
}

let nextId = 1;

/** `models`: what `GET /v1/models` lists (a complete catalog); none by default. */
export async function startChatServer(
  script: ChatScript,
  options: {models?: string[]} = {},
): Promise<ChatServer> {
  const server = await listenModelServer(async (request, response, isModel) => {
    if (request.method === 'GET' && request.path.startsWith('/v1/models')) {
      response
        .writeHead(200, {'content-type': 'application/json'})
        .end(
          JSON.stringify({object: 'list', data: (options.models ?? []).map((id) => ({id, object: 'model'}))}),
        );
      return;
    }
    if (request.method !== 'POST' || !request.path.startsWith('/v1/chat/completions')) {
      response
        .writeHead(404, {'content-type': 'application/json'})
        .end(JSON.stringify({error: {message: 'not found'}}));
      return;
    }
    await answerChatRequest(script, request, response, isModel);
  });
  return {
    ...server,
    get abortedStreams() {
      return server.abortedStreams;
    },
    turns: () => server.modelRequests().map((r) => parseChatTurn(r.body)),
  };
}

/**
 * Answers one `POST .../chat/completions` request from the script: the route of this server, also mounted by the
 * scripted Ollama server at `/v1/chat/completions` (OpenCode on a local Ollama provider).
 */
export async function answerChatRequest(
  script: ChatScript,
  request: RecordedRequest,
  response: ServerResponse,
  isModel: (value: boolean) => void,
): Promise<void> {
  isModel(true);
  const turn = parseChatTurn(request.body);
  const reply = await script(turn, request);
  if ('status' in reply) {
    const retry = reply.retryAfterMs === undefined ? {} : {'retry-after-ms': String(reply.retryAfterMs)};
    response.writeHead(reply.status, {'content-type': 'application/json', ...retry}).end(
      JSON.stringify({
        error: {message: reply.error, type: reply.type ?? 'server_error', code: reply.code ?? null},
      }),
    );
    return;
  }
  const id = `chatcmpl_${nextId++}`;
  const chunk = (delta: unknown, finish: string | null, extra: Record<string, unknown> = {}) => ({
    data: {
      id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: turn.model,
      choices: [{index: 0, delta, finish_reason: finish}],
      ...extra,
    },
  });
  if ('hang' in reply) {
    await writeSse(response, [
      chunk({role: 'assistant', content: ''}, null),
      {...chunk({}, null), pauseMs: Number.POSITIVE_INFINITY},
    ]);
    return;
  }
  const counts = reply.usage ?? {prompt: 10, completion: 5};
  const usage = {
    usage: {
      prompt_tokens: counts.prompt,
      completion_tokens: counts.completion,
      total_tokens: counts.prompt + counts.completion,
      ...(counts.cached === undefined ? {} : {prompt_tokens_details: {cached_tokens: counts.cached}}),
      ...(counts.reasoning === undefined
        ? {}
        : {completion_tokens_details: {reasoning_tokens: counts.reasoning}}),
    },
  };
  const body =
    'text' in reply
      ? [
          {
            ...chunk({role: 'assistant', content: reply.text}, null),
            ...(reply.pauseMs === undefined ? {} : {pauseMs: reply.pauseMs}),
          },
          chunk({}, 'stop', usage),
        ]
      : [
          chunk(
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: `call_${nextId++}`,
                  type: 'function',
                  function: {
                    name: reply.toolCall.name,
                    arguments: JSON.stringify(reply.toolCall.arguments),
                  },
                },
              ],
            },
            null,
          ),
          chunk({}, 'tool_calls', usage),
        ];
  await writeSse(response, [...body, {data: '[DONE]', raw: true}]);
}

export function parseChatTurn(body: unknown): ChatTurn {
  // biome-ignore lint/suspicious/noExplicitAny: the chat completions body
  const b = (body ?? {}) as any;
  const messages: {role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown}[] =
    Array.isArray(b.messages) ? b.messages : [];
  const textOf = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: {text?: string}) => part.text ?? '').join('')
        : '';
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const callNames = new Map<string, string>();
  for (const message of messages) {
    for (const call of (Array.isArray(message.tool_calls) ? message.tool_calls : []) as {
      id: string;
      function: {name: string};
    }[])
      callNames.set(call.id, call.function.name);
  }
  return {
    body: b,
    model: String(b.model ?? ''),
    userText: lastUser >= 0 ? textOf(messages[lastUser]!.content) : '',
    systemText: messages
      .filter((m) => m.role === 'system')
      .map((m) => textOf(m.content))
      .join('\n'),
    toolResults: messages
      .slice(lastUser + 1)
      .filter((m) => m.role === 'tool')
      .map((m) => ({
        callId: String(m.tool_call_id),
        name: callNames.get(String(m.tool_call_id)) ?? '',
        output: textOf(m.content),
      })),
    toolNames: (Array.isArray(b.tools) ? b.tools : []).map(
      (tool: {function?: {name?: string}}) => tool.function?.name ?? '',
    ),
    transcript: messages.map((m) => textOf(m.content)).join('\n'),
  };
}
