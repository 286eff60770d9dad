/**
 * Agent hooks (design philosophy, "Hooks control work; events describe it"). Control hooks are awaited by the
 * harness before it goes on; a hook that throws fails the execution (STRATOS_AGENT_HOOK_FAILED). Events are only
 * reported: `onEvent` is called without waiting, so observing never pauses the harness.
 */

/** A tool call as the hooks see it. */
export interface ToolCall {
  /** The harness's own tool name (`Bash`, `shell`); MCP tools are `mcp__<server>__<tool>` on every harness. */
  nativeName: string;
  /** The shared name (`bash`, `read` ...) when the tool has one; MCP tools have none. */
  canonicalName?: string;
  /** For MCP tools: the `mcp.servers` key and the tool name on that server. */
  mcp?: {server: string; tool: string};
  input: Record<string, unknown>;
}

/** What a before-tool hook decides; returning nothing allows the call unchanged. */
export type BeforeToolDecision =
  | {action: 'allow'}
  | {action: 'deny'; feedback: string}
  | {action: 'modify'; input: Record<string, unknown>};

/** What an after-tool hook decides; returning nothing keeps the result. */
export type AfterToolDecision = {action: 'keep'} | {action: 'withhold'; feedback: string};

export interface AgentLifecycleEvent {
  agent: string;
  harness: string;
  prompt: string;
}

export interface AgentHooks {
  /**
   * Awaited before each tool call: allow, deny with feedback (the model sees it and may try another way), or modify
   * the input. On Codex (through the MCP hook bridge) tool hooks see MCP tool calls only.
   */
  beforeTool?: (call: ToolCall) => BeforeToolDecision | undefined | Promise<BeforeToolDecision | undefined>;
  /** Awaited after each tool call: keep the result or withhold it, giving the model feedback instead. */
  afterTool?: (
    call: ToolCall & {result: unknown},
  ) => AfterToolDecision | undefined | Promise<AfterToolDecision | undefined>;
  onStart?: (event: AgentLifecycleEvent) => void | Promise<void>;
  onComplete?: (event: AgentLifecycleEvent & {output: unknown}) => void | Promise<void>;
  onError?: (event: AgentLifecycleEvent & {error: unknown}) => void | Promise<void>;
}

/** Normalized observations of one execution. Reported as they happen; never awaited. */
export type AgentEvent =
  | {type: 'text'; text: string}
  | {type: 'tool.start'; call: ToolCall}
  | {type: 'tool.end'; call: ToolCall; ok: boolean}
  | {type: 'usage'; inputTokens?: number; outputTokens?: number};

/** Runs a control hook; a throw becomes the execution's failure, kept as `cause`. */
export class HookFailure extends Error {
  readonly hook: string;
  constructor(hook: string, cause: unknown) {
    super(`The ${hook} hook threw: ${cause instanceof Error ? cause.message : String(cause)}`, {cause});
    this.name = 'HookFailure';
    this.hook = hook;
  }
}

export async function callHook<T>(hook: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new HookFailure(hook, error);
  }
}
