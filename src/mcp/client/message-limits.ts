/**
 * What an MCP server may send in one message, the same over stdio and Streamable HTTP: at most
 * MAX_MCP_MESSAGE_BYTES (the SDK's stdio read limit, set explicitly so both transports share it), and results
 * nested at most MAX_VALUE_DEPTH levels like workflow values. A message over a limit ends its request (over
 * stdio, the SDK also closes the connection); the session keeps the failure so the caller reports the limit, not
 * the "Connection closed" that follows it.
 */
import {StratosError} from '../../errors/index.ts';
import {findJsonValueProblem, MAX_VALUE_DEPTH} from '../../internal/json-value-limits.ts';

/** 10 MiB: the largest JSON-RPC message Stratos reads from an MCP server. */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A limit a server's message broke, as the transport or the SDK reported it. */
export type McpMessageLimit = 'size' | 'depth';

/** A Streamable HTTP response (or one server-sent event) over MAX_MCP_MESSAGE_BYTES. */
export class McpMessageTooLargeError extends Error {
  constructor() {
    super(`The MCP server sent a message larger than ${formatMiB(MAX_MCP_MESSAGE_BYTES)}.`);
    this.name = 'McpMessageTooLargeError';
  }
}

/**
 * The limit behind a transport error, or undefined for any other failure: the SDK's stdio read buffer overflowing,
 * the HTTP byte limit below, or the stack overflowing while the SDK parsed a deeply nested message.
 */
export function limitOf(error: unknown): McpMessageLimit | undefined {
  for (let item = error, seen = 0; item instanceof Error && seen < 8; item = item.cause, seen++) {
    if (item instanceof McpMessageTooLargeError || /ReadBuffer exceeded maximum size/.test(item.message))
      return 'size';
    if (item instanceof RangeError && /call stack/i.test(item.message)) return 'depth';
  }
  return undefined;
}

/**
 * `fetchFn` whose response bodies stop with McpMessageTooLargeError once one message passes the byte limit: a JSON
 * response as a whole, an event stream per event (bytes since the last blank line). `onLimit` learns of it first.
 */
export function limitResponseSize(
  fetchFn: typeof fetch,
  onLimit: (error: McpMessageTooLargeError) => void,
): typeof fetch {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (response.body === null) return response;
    const perEvent = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    /** The bytes just before this chunk, to find a blank line split across chunks. */
    let tail = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          let over = false;
          if (perEvent) {
            for (const byte of chunk) {
              if (byte === 0x0d) continue;
              size = byte === 0x0a && tail === 0x0a ? 0 : size + 1;
              tail = byte;
              if (size > MAX_MCP_MESSAGE_BYTES) over = true;
            }
          } else {
            size += chunk.byteLength;
            over = size > MAX_MCP_MESSAGE_BYTES;
          }
          if (over) {
            const error = new McpMessageTooLargeError();
            onLimit(error);
            controller.error(error);
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * The coded error of a tool call or discovery whose answer broke a limit.
 *
 * @returns StratosError `STRATOS_MCP_RESULT_TOO_LARGE` or `STRATOS_MCP_RESULT_TOO_DEEP`.
 */
export function messageLimitError(
  limit: McpMessageLimit,
  what: {server: string; request: string},
  cause: unknown,
  path?: string,
): StratosError {
  const details = {server: what.server, request: what.request};
  if (limit === 'size') {
    return new StratosError(
      'STRATOS_MCP_RESULT_TOO_LARGE',
      `The answer of MCP server '${what.server}' to ${what.request} is larger than the client's message limit of ${formatMiB(MAX_MCP_MESSAGE_BYTES)}, so Stratos did not read it${cause === undefined ? '' : ' and closed the request'}. Ask for less at once (a page, a range or a filter), or have the server return a link or a file path instead of the content.`,
      {cause, details: {...details, limitBytes: MAX_MCP_MESSAGE_BYTES}},
    );
  }
  const at =
    path === undefined || path === '' ? '' : ` at ${path.length > 80 ? `${path.slice(0, 60)}...` : path}`;
  return new StratosError(
    'STRATOS_MCP_RESULT_TOO_DEEP',
    `The answer of MCP server '${what.server}' to ${what.request} is nested more than ${MAX_VALUE_DEPTH} levels deep${at}, the limit of values Stratos reads and records. Have the server return a flatter result.`,
    {cause, details: {...details, limitDepth: MAX_VALUE_DEPTH}},
  );
}

/** The depth problem of a received result (cycles cannot come from JSON), as its path, or undefined. */
export function findResultDepthProblem(result: unknown): string | undefined {
  return findJsonValueProblem(result)?.path;
}

function formatMiB(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}
