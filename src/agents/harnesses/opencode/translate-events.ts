/**
 * OpenCode's native events and prompt responses as Stratos observations and results: pure functions (the
 * subscription that feeds them, with what it has already seen, is ./turn-events.ts). OpenCode reports each model
 * call of a turn as a `step-start` part and a `step-finish` part (with that call's token counts) of the assistant
 * message, and each tool call as a `tool` part whose state goes `pending`, `running`, then `completed` or `error`.
 * These become `model.start` / `model.end` and `tool.start` / `tool.end` with the times OpenCode reports (a tool
 * state's `time.start` / `time.end`, else the event's own time: the stream delivers events in batches, later).
 * Nothing is inferred: a boundary OpenCode does not report makes no observation.
 */
import type {HarnessTurnResult} from '../../harness.ts';
import type {AgentEvent, TokenCounts, ToolCall} from '../../harness-kit/hooks.ts';
import {describeToolCall} from '../../harness-kit/tool-call.ts';
import {openCodeTools} from './tools.ts';

interface NativeTokens {
  input: number;
  output: number;
  cache?: {read?: number; write?: number};
}

/** What has been reported of a tool call (by its `callID`). */
export type ToolCallProgress = 'started' | 'ended' | undefined;

/** A `step-start` or `step-finish` part as a model boundary; `model` is its assistant message's model. */
export function translateStepPart(
  // biome-ignore lint/suspicious/noExplicitAny: one part of OpenCode's Part union, read defensively
  part: any,
  model: string | undefined,
  reportedAt: number | undefined,
): AgentEvent {
  const at = reportedAt === undefined ? {} : {at: reportedAt};
  if (part.type === 'step-start') return {type: 'model.start', ...at};
  return {type: 'model.end', ...at, ...(model === undefined ? {} : {model}), ...toTokenCounts(part.tokens)};
}

/**
 * A `tool` part as the observations it adds to what was already reported of its call (`progress`): the start
 * once, the end once; a pending call reports nothing yet.
 * @param servers the selected MCP server names, longest first: OpenCode names their tools `<server>_<tool>`
 */
export function translateToolPart(
  // biome-ignore lint/suspicious/noExplicitAny: one part of OpenCode's Part union, read defensively
  part: any,
  progress: ToolCallProgress,
  servers: readonly string[],
  reportedAt: number | undefined,
): {events: AgentEvent[]; progress: ToolCallProgress} {
  const state = part.state ?? {};
  if (progress === 'ended' || state.status === 'pending') return {events: [], progress};
  const at = (time: unknown) =>
    typeof time === 'number' ? {at: time} : reportedAt === undefined ? {} : {at: reportedAt};
  const call = describeOpenCodeTool(part.tool, state.input, servers);
  const events: AgentEvent[] = [];
  if (progress === undefined)
    events.push({type: 'tool.start', id: part.callID, call, ...at(state.time?.start)});
  if (state.status !== 'completed' && state.status !== 'error') return {events, progress: 'started'};
  events.push({
    type: 'tool.end',
    id: part.callID,
    call,
    ok: state.status === 'completed',
    ...(state.status === 'completed' && state.output !== undefined ? {result: state.output} : {}),
    ...at(state.time?.end),
    ...(state.status === 'error' && typeof state.error === 'string' ? {error: state.error} : {}),
  });
  return {events, progress: 'ended'};
}

/** MCP tools in the shared shape (`mcp__<server>__<tool>`), built-in ones by their native name. */
export function describeOpenCodeTool(tool: string, input: unknown, servers: readonly string[]): ToolCall {
  const server = servers.find((name) => tool.startsWith(`${name}_`));
  if (server === undefined) return describeToolCall(openCodeTools, tool, input, undefined);
  const mcp = {server, tool: tool.slice(server.length + 1)};
  return describeToolCall(openCodeTools, `mcp__${mcp.server}__${mcp.tool}`, input, mcp);
}

/** OpenCode's counts as reported; input includes the cached tokens, as for the other harnesses. */
export function toTokenCounts(tokens: NativeTokens | undefined): TokenCounts {
  if (typeof tokens?.input !== 'number' || typeof tokens.output !== 'number') return {};
  const read = tokens.cache?.read ?? 0;
  const write = tokens.cache?.write ?? 0;
  return {
    inputTokens: tokens.input + read + write,
    outputTokens: tokens.output,
    cacheReadInputTokens: read,
    cacheCreationInputTokens: write,
  };
}

/** The prompt's answer as OpenCode returns it (the fields Stratos reads). */
export interface OpenCodePromptData {
  info: {
    tokens?: NativeTokens & {cache: {read: number; write: number}};
    error?: unknown;
    structured?: unknown;
  };
  parts: readonly {type: string}[];
}

/**
 * How a prompt ended: `answer` (its text is reported), `unstructured` (the model answered in prose where an output
 * schema asked for a structured value: the agent reports STRATOS_AGENT_OUTPUT_MISSING) or `error` (the assistant
 * message's error). `usage`: the turn's, summed from the stream's model calls when it reported any
 * (`streamedUsage`), else the response's own (its last message's) counts.
 */
export function translatePromptResult(
  data: OpenCodePromptData,
  streamedUsage: TokenCounts | undefined,
): {
  usage: TokenCounts | undefined;
  outcome: {kind: 'answer' | 'unstructured'; result: HarnessTurnResult} | {kind: 'error'; error: unknown};
} {
  const {info} = data;
  const usage = streamedUsage ?? (info.tokens === undefined ? undefined : toTokenCounts(info.tokens));
  const text = textOf(data.parts);
  if ((info.error as {name?: string} | undefined)?.name === 'StructuredOutputError')
    return {usage, outcome: {kind: 'unstructured', result: {text}}};
  if (info.error !== undefined) return {usage, outcome: {kind: 'error', error: info.error}};
  const result = {text, ...(info.structured === undefined ? {} : {structured: {value: info.structured}})};
  return {usage, outcome: {kind: 'answer', result}};
}

function textOf(parts: readonly {type: string}[]): string {
  return parts
    .filter((part) => part.type === 'text')
    .map((part) => (part as {text?: string}).text ?? '')
    .join('');
}
