/**
 * One MCP tool call forwarded by the MCP hook bridge: the before-tool hook, the real call, the after-tool hook
 * (the rules are `apply-tool-hooks.ts`), answered as an MCP result. Denials, withheld results, failed calls and
 * failing hooks become error results (`isError: true`), valid for every tool.
 */
import type {CallToolResult} from '@modelcontextprotocol/server';
import {describeError} from '../../internal/describe-error.ts';
import {applyAfterTool, applyBeforeTool} from './apply-tool-hooks.ts';
import type {AgentHooks, HookFailure} from './hooks.ts';
import type {McpUpstream} from './mcp-upstream-pool.ts';
import {describeToolCall} from './tool-call.ts';

/** Runs the control hooks around each forwarded call of one bridge. */
export class BridgeToolCalls {
  readonly #hooks: AgentHooks;
  readonly #onHookFailure: (failure: HookFailure) => void;
  #closed = false;

  /** @param onHookFailure called once per failing control hook; the owner fails the running execution with it */
  constructor(hooks: AgentHooks, onHookFailure: (failure: HookFailure) => void) {
    this.#hooks = hooks;
    this.#onHookFailure = onHookFailure;
  }

  /** From now on every call is answered with an error result. */
  close(): void {
    this.#closed = true;
  }

  async call(
    upstream: McpUpstream,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    if (this.#closed) return errorResult('The agent session that owned this MCP connection has ended.');
    const server = upstream.name;
    // Only MCP tools pass through the bridge, and no tool table gives an MCP tool a canonical name.
    const call = describeToolCall({canonical: {}}, `mcp__${server}__${tool}`, args, {server, tool});
    const before = await applyBeforeTool(this.#hooks, call);
    if (before.action === 'fail') return this.#failed(before.failure);
    if (before.action === 'deny') return errorResult(before.feedback);
    let result: CallToolResult;
    try {
      result = await upstream.callTool(tool, before.input, signal);
    } catch (error) {
      return errorResult(`The MCP tool '${tool}' of server '${server}' failed: ${describeError(error)}`);
    }
    const after = await applyAfterTool(this.#hooks, {...call, input: before.input}, result);
    if (after.action === 'fail') return this.#failed(after.failure);
    if (after.action === 'withhold') return withheldResult(after.feedback);
    return result;
  }

  /** A throwing hook is reported to the owner (which fails the execution) and answered with an error result. */
  #failed(failure: HookFailure): CallToolResult {
    this.#onHookFailure(failure);
    return errorResult(`${failure.message} The execution is stopping.`);
  }
}

function errorResult(text: string): CallToolResult {
  return {content: [{type: 'text', text}], isError: true};
}

/**
 * What the harness receives in place of a withheld result: the feedback as an error result. A successful result of a
 * tool that declares an output schema must carry `structuredContent` conforming to it (MCP clients such as OpenCode's
 * reject one without, error -32600), which feedback text cannot; an error result is valid for every tool.
 */
function withheldResult(feedback: string): CallToolResult {
  return errorResult(feedback);
}
