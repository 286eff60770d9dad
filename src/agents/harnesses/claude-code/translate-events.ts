/**
 * Claude Code's native messages as Stratos observations and results: pure functions, no session state (the session
 * keeps the one response being streamed and passes it in). Partial messages are on, so each model call of the main
 * conversation is seen from its stream's `message_start` to `message_stop`, with the usage of `message_start` and
 * `message_delta` (the usage on streamed assistant messages is a partial count). Sub-agents, background tasks and
 * compaction: `spawned-work.ts`.
 */
import type {SDKMessage, SDKResultMessage} from '@anthropic-ai/claude-agent-sdk';
import {StratosError} from '../../../errors/index.ts';
import type {HarnessTurnResult} from '../../harness.ts';
import type {AgentEvent, TokenCounts} from '../../harness-kit/hooks.ts';
import {NativeBudgetError} from '../../harness-kit/native-budget-error.ts';

/** Usage fields of the Messages API (`message_start` message usage, `message_delta` usage, result usage). */
export interface NativeUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The model response being streamed: its model and the usage reported so far. */
export interface StreamedResponse {
  model?: string;
  usage: NativeUsage;
}

type StreamEvent = Extract<SDKMessage, {type: 'stream_event'}>['event'];

/**
 * One streaming event of the main conversation: the response being streamed after it, and the `model.end` it
 * completes (at `message_stop`).
 */
export function translateStreamEvent(
  event: StreamEvent,
  response: StreamedResponse | undefined,
): {response: StreamedResponse | undefined; event?: AgentEvent} {
  switch (event.type) {
    case 'message_start':
      return {response: {model: event.message.model, usage: {...(event.message.usage as NativeUsage)}}};
    case 'message_delta': {
      // The delta's counts are cumulative for the message and final; a count it leaves out keeps its start value.
      const usage: NativeUsage = {...response?.usage};
      for (const [key, value] of Object.entries(event.usage as NativeUsage)) {
        if (typeof value === 'number') usage[key as keyof NativeUsage] = value;
      }
      return {response: {...response, usage}};
    }
    case 'message_stop':
      return {
        response: undefined,
        event: {
          type: 'model.end',
          ...(response?.model === undefined ? {} : {model: response.model}),
          ...tokenCounts(response?.usage ?? {}),
        },
      };
    default:
      return {response};
  }
}

/** The non-empty text blocks of an assistant message, in order. */
export function readAssistantTexts(message: Extract<SDKMessage, {type: 'assistant'}>): string[] {
  return message.message.content.flatMap((block) =>
    block.type === 'text' && block.text !== '' ? [block.text] : [],
  );
}

/** How a turn ended: its result, or the reason Claude Code gave for failing it. */
export type ClaudeTurnOutcome =
  | {ok: true; result: HarnessTurnResult}
  /** `budgetExceeded`: Claude Code stopped at its own `maxBudgetUsd` cap (`error_max_budget_usd`). */
  | {ok: false; reason: string; budgetExceeded?: true};

/** The turn's cost as Claude Code computed it (`total_cost_usd`), recorded beside Stratos's own figure. */
function nativeCost(message: {total_cost_usd?: unknown}): {nativeCostUsd?: number} {
  return typeof message.total_cost_usd === 'number' ? {nativeCostUsd: message.total_cost_usd} : {};
}

/**
 * The result message of a prompt: the turn's usage and outcome. Undefined for a result that answers no prompt of
 * ours (a turn Claude Code started on its own, to read a background task's notification), which does not echo
 * `promptUuid`.
 */
export function translateResult(
  message: SDKResultMessage,
  promptUuid: string,
): {usage: TokenCounts & {nativeCostUsd?: number}; outcome: ClaudeTurnOutcome} | undefined {
  const answered = (message as {user_message_uuids?: string[]}).user_message_uuids;
  if (answered !== undefined && !answered.includes(promptUuid)) return undefined;
  const usage = {...tokenCounts(message.usage as NativeUsage), ...nativeCost(message)};
  if (message.subtype === 'success' && !message.is_error) {
    const structured = (message as {structured_output?: unknown}).structured_output;
    const result = {
      text: message.result,
      ...(structured === undefined ? {} : {structured: {value: structured}}),
    };
    return {usage, outcome: {ok: true, result}};
  }
  const reason =
    message.subtype === 'success'
      ? message.result
      : `${message.subtype}${message.errors.length > 0 ? `: ${message.errors.join('; ')}` : ''}`;
  const budgetExceeded = message.subtype === 'error_max_budget_usd' ? {budgetExceeded: true as const} : {};
  return {usage, outcome: {ok: false, reason, ...budgetExceeded}};
}

/**
 * Claude Code stopped at its own cap (`maxBudgetUsd`, the USD budget left when the session started): this turn
 * fails with STRATOS_BUDGET_EXCEEDED, and so does every later turn of the session. `spentUsd` is its own figure.
 */
export function createNativeBudgetError(
  agent: string,
  reason: string,
  figures: {spentUsd?: number | undefined; limitUsd?: number | undefined},
): NativeBudgetError {
  return new NativeBudgetError(
    `Claude Code stopped the turn at its own cap, the USD budget left when this agent's session started (${reason}). Raise the budget (budget: in workflow.yaml, overrides.budget or stratos run --budget-usd) or spend less.`,
    {agent, harness: 'claude-code', ...figures},
  );
}

/**
 * Claude Code waits for the selected MCP servers before its first request and reports each one's status in its
 * `init` message; one that failed would leave the model without the tools the author selected, so the session
 * stops instead, with this error naming the servers. Undefined when every selected server started.
 */
export function findMcpStartupFailure(
  agent: string,
  statuses: readonly {name: string; status: string}[],
  selected: readonly string[],
): StratosError | undefined {
  const failed = statuses
    .filter((s) => selected.includes(s.name) && s.status === 'failed')
    .map((s) => s.name);
  if (failed.length === 0) return undefined;
  const names = failed.map((name) => `'${name}'`).join(', ');
  return new StratosError(
    'STRATOS_MCP_CONNECT_FAILED',
    `Agent '${agent}' (claude-code) could not start its MCP server${failed.length > 1 ? 's' : ''} ${names}; the execution stopped rather than run without ${failed.length > 1 ? 'them' : 'it'}. Check that the server's command or URL in mcp.servers of workflow.yaml works on its own.`,
    {details: {agent, harness: 'claude-code', servers: failed}},
  );
}

/** Reported counts only; input tokens include cache reads and writes (the GenAI convention's input count). */
export function tokenCounts(usage: NativeUsage): TokenCounts {
  const count = (value: number | null | undefined) => (typeof value === 'number' ? value : undefined);
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheCreation = count(usage.cache_creation_input_tokens);
  return {
    ...(input === undefined ? {} : {inputTokens: input + (cacheRead ?? 0) + (cacheCreation ?? 0)}),
    ...(output === undefined ? {} : {outputTokens: output}),
    ...(cacheRead === undefined ? {} : {cacheReadInputTokens: cacheRead}),
    ...(cacheCreation === undefined ? {} : {cacheCreationInputTokens: cacheCreation}),
  };
}
