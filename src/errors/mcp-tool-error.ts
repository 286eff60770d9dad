/** A tool-level MCP failure: the server answered, but with `isError: true`. The whole result is the cause. */
import {describeCauseText} from './cause-text.ts';
import {StratosError} from './stratos-error.ts';

/** The part of an MCP tool result this error reads; the full result (content, `_meta` ...) is kept as `cause`. */
export interface McpToolErrorResult {
  content?: readonly unknown[];
  isError?: boolean;
  structuredContent?: unknown;
  [key: string]: unknown;
}

/**
 * Thrown by a generated MCP method when the tool returns `isError: true`. Catch it to inspect the result:
 * `error.cause` (also `error.result`) is the tool result as the server sent it. It is never retried.
 *
 * @example
 * try {
 *   await github.get_me({});
 * } catch (error) {
 *   if (error instanceof McpToolError) console.error(error.tool, error.result.content);
 *   else throw error;
 * }
 */
export class McpToolError extends StratosError {
  /** The `mcp.servers` key of the server. */
  readonly server: string;
  /** The tool name as dispatched. */
  readonly tool: string;
  /** The tool result (the same object as `cause`). */
  readonly result: McpToolErrorResult;
  declare readonly cause: McpToolErrorResult;

  constructor(server: string, tool: string, result: McpToolErrorResult) {
    const text = firstText(result);
    super(
      'STRATOS_MCP_TOOL_ERROR',
      `The MCP tool '${tool}' of server '${server}' reported an error${text === undefined ? '.' : `: ${text}`}`,
      {cause: result, details: {server, tool}},
    );
    this.name = 'McpToolError';
    this.server = server;
    this.tool = tool;
    this.result = result;
  }
}

const maxMessageText = 500;

/** The tool's error content (text items joined, else structured content as JSON), cut for the message. */
function firstText(result: McpToolErrorResult): string | undefined {
  const text = describeCauseText(result).trim();
  if (text === '' || text === '[]') return undefined;
  return text.length > maxMessageText ? `${text.slice(0, maxMessageText)}…` : text;
}
