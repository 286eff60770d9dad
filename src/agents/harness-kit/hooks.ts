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
   * the input. An agent with this hook may keep only built-in tools its harness lets it see (docs/agents.md,
   * "Hooks"); createAgent refuses it otherwise (STRATOS_AGENT_HOOK_UNGUARDED).
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

/** Token counts a harness reported; a count it did not report is absent, never zero. */
export interface TokenCounts {
  /** All input tokens, cached ones included (Claude's uncached, cache-read and cache-write counts added). */
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens read from the provider's prompt cache, when reported. */
  cacheReadInputTokens?: number;
  /** Input tokens written to the provider's prompt cache, when reported. */
  cacheCreationInputTokens?: number;
}

/**
 * Normalized observations of one execution. Reported as they happen; never awaited. A harness reports only the
 * boundaries it can observe: Claude Code reports each model call (`model.start` / `model.end`), Codex only the
 * usage of the whole turn (`usage`). Tool observations carry the native call id that pairs start and end.
 * Work of a sub-agent or background task carries `origin`: the native id of the tool call that spawned it. Such
 * work may be reported after its prompt's execute returned (during a later prompt, or between prompts).
 */
export type AgentEvent =
  | {type: 'text'; text: string}
  /**
   * The harness began a model request (Claude Code: its `requesting` status). `at`, on this and the other
   * boundaries: when the harness says it happened (epoch ms), for a harness that reports times (OpenCode).
   */
  | {type: 'model.start'; at?: number}
  /**
   * A model response ended; `error` when the request failed. With `origin`: a response of a sub-agent (only its
   * end is observed).
   */
  | ({type: 'model.end'; model?: string; error?: string; at?: number; origin?: string} & TokenCounts)
  | {type: 'tool.start'; id: string; call: ToolCall; at?: number; origin?: string}
  /**
   * A tool call ended. `ok: false` when the tool failed (`error`), a before-tool hook denied it or an after-tool
   * hook withheld its result (`decision`). `result`: what the tool returned, as the harness reports it (Claude
   * Code's tool response, an MCP tool's content, a command's output); absent when the harness reported none or a
   * hook withheld it.
   */
  | {
      type: 'tool.end';
      id: string;
      call: ToolCall;
      ok: boolean;
      result?: unknown;
      error?: string;
      decision?: 'deny' | 'withhold';
      at?: number;
      origin?: string;
    }
  /** Usage of the whole turn, as the harness reported it at the turn's end. */
  | ({
      type: 'usage';
      /** Reasoning tokens, when reported apart (Codex); they are part of `outputTokens`. */
      reasoningTokens?: number;
      /** The turn's cost as the harness computed it (Claude Code's `total_cost_usd`). */
      nativeCostUsd?: number;
    } & TokenCounts)
  /**
   * The harness started a task for a tool call (Claude Code: a sub-agent of its Agent/Task tool, a background
   * command). `background`: the tool call returns at once and the task goes on, possibly past the prompt.
   */
  | {
      type: 'task.start';
      id: string;
      toolCallId?: string;
      description: string;
      taskType?: string;
      subagentType?: string;
      background: boolean;
    }
  /** A task ended, with the totals the harness reported for it. */
  | {
      type: 'task.end';
      id: string;
      toolCallId?: string;
      status: 'completed' | 'failed' | 'stopped';
      totalTokens?: number;
      toolUses?: number;
    }
  /**
   * The agent's plan as it stands (an ACP agent's `plan` update): every entry, in order, each time it changes.
   */
  | {type: 'plan'; entries: PlanEntry[]}
  /** The harness began compacting the conversation (summarising earlier turns to free context). */
  | {type: 'compaction.start'}
  /** A compaction ended: what started it and the conversation's token counts before and after, as reported. */
  | {
      type: 'compaction.end';
      trigger?: 'manual' | 'auto';
      preTokens?: number;
      postTokens?: number;
      error?: string;
    };

/** One entry of an agent's plan: a task, its status and its priority, as the agent reports them. */
export interface PlanEntry {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  priority: 'high' | 'medium' | 'low';
}

/** Runs a control hook; a throw becomes the execution's failure, kept as `cause`. */
export class HookFailure extends Error {
  readonly hook: string;
  constructor(hook: string, cause: unknown) {
    super(`The ${hook} hook threw: ${cause instanceof Error ? cause.message : String(cause)}`, {cause});
    this.name = 'HookFailure';
    this.hook = hook;
  }
}
