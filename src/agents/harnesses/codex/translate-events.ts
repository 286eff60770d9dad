/**
 * Codex's thread events as Stratos observations and results: pure functions. Codex reports an MCP tool call and a
 * command as items that start and complete, the assistant's message as a completed item, and usage for the whole
 * turn only (`turn.completed`), not per model call: no model-call boundaries are invented.
 */
import type {ThreadEvent} from '@openai/codex-sdk';
import {StratosError} from '../../../errors/index.ts';
import {describeError} from '../../../internal/describe-error.ts';
import type {HarnessTurnResult} from '../../harness.ts';
import type {AgentEvent} from '../../harness-kit/hooks.ts';
import {describeToolCall} from '../../harness-kit/tool-call.ts';
import {codexTools} from './tools.ts';

/** What one event means: observations to report, the assistant's text so far, or the turn's failure. */
export interface CodexEventTranslation {
  events: AgentEvent[];
  /** The assistant message completed by this event (the turn's answer is the last one). */
  text?: string;
  /** Codex failed the turn with this message. */
  failure?: string;
}

/** One thread event of a turn. */
export function translateThreadEvent(event: ThreadEvent): CodexEventTranslation {
  switch (event.type) {
    case 'item.started':
    case 'item.completed': {
      const item = event.item;
      const started = event.type === 'item.started';
      if (item.type === 'agent_message')
        return started ? {events: []} : {events: [{type: 'text', text: item.text}], text: item.text};
      if (item.type === 'mcp_tool_call') {
        const mcp = {server: item.server, tool: item.tool};
        const call = describeToolCall(codexTools, `mcp__${item.server}__${item.tool}`, item.arguments, mcp);
        if (started) return {events: [{type: 'tool.start', id: item.id, call}]};
        const end: AgentEvent = {
          type: 'tool.end',
          id: item.id,
          call,
          ok: item.status === 'completed',
          ...(item.result == null ? {} : {result: mcpResult(item.result)}),
          // Codex sends `error: null` for a call that did not fail.
          ...(typeof item.error?.message === 'string' ? {error: item.error.message} : {}),
        };
        return {events: [end]};
      }
      if (item.type === 'command_execution') {
        const call = describeToolCall(codexTools, 'shell', {command: item.command}, undefined);
        if (started) return {events: [{type: 'tool.start', id: item.id, call}]};
        const end: AgentEvent = {
          type: 'tool.end',
          id: item.id,
          call,
          ok: item.status === 'completed',
          result: {output: item.aggregated_output, exitCode: item.exit_code},
          ...(item.status === 'completed' || item.exit_code === undefined
            ? {}
            : {error: `The command exited with code ${item.exit_code}.`}),
        };
        return {events: [end]};
      }
      return {events: []};
    }
    case 'turn.completed': {
      const usage = event.usage;
      const usageEvent: AgentEvent = {
        type: 'usage',
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        ...(typeof usage.cached_input_tokens === 'number'
          ? {cacheReadInputTokens: usage.cached_input_tokens}
          : {}),
        ...(typeof usage.cache_write_input_tokens === 'number'
          ? {cacheCreationInputTokens: usage.cache_write_input_tokens}
          : {}),
        ...(typeof usage.reasoning_output_tokens === 'number'
          ? {reasoningTokens: usage.reasoning_output_tokens}
          : {}),
      };
      return {events: [usageEvent]};
    }
    case 'turn.failed':
      return {events: [], failure: event.error.message};
    case 'error':
      return {events: [], failure: event.message};
    default:
      return {events: []};
  }
}

/** An MCP tool's result as Codex reports it, in the shape a direct MCP call records (`structuredContent`). */
function mcpResult(result: {content: unknown; structured_content: unknown}): Record<string, unknown> {
  return result.structured_content == null
    ? {content: result.content}
    : {content: result.content, structuredContent: result.structured_content};
}

/** With an output schema Codex answers with JSON text in strict `text.format`; prose is not a result. */
export function parseStructured(text: string): HarnessTurnResult {
  try {
    return {text, structured: {value: JSON.parse(text)}};
  } catch {
    return {text};
  }
}

/**
 * A required MCP server that did not start fails Codex's thread before any model request; its message names the
 * server and the reason (`required MCP servers failed to initialize: counter: timed out handshaking ...`).
 */
export function toMcpStartupError(error: unknown, agent: string): StratosError | undefined {
  const message = describeError(error);
  const match = /required MCP servers failed to initialize: ([^\n]*)/.exec(message);
  if (match === null) return undefined;
  const reason = match[1]!.trim();
  const server = /^([^:]+):/.exec(reason)?.[1];
  return new StratosError(
    'STRATOS_MCP_CONNECT_FAILED',
    `Agent '${agent}' (codex) could not start its MCP server${server === undefined ? '' : ` '${server}'`}: ${reason}. Nothing was sent to a model. Check that the server's command or URL in mcp.servers of workflow.yaml works on its own.`,
    {cause: error, details: {agent, harness: 'codex', ...(server === undefined ? {} : {server})}},
  );
}
