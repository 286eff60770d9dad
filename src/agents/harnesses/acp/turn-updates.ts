/**
 * What one ACP session reports, as Stratos observations and hooks. `session/update` notifications give the reply
 * text (`agent_message_chunk`), tool calls and their status (`tool_call`, `tool_call_update`: `tool.start` when a
 * call is first seen, `tool.end` with its output when it completes or fails, and the afterTool hook then), the
 * agent's plan (`plan`, ./plan.ts) and usage;
 * `session/request_permission` is where the beforeTool hook decides (./permission.ts). ACP reports no model request
 * boundaries, so no `model.start`/`model.end` is invented.
 */
import type {AgentEvent, AgentHooks, ToolCall} from '../../harness-kit/hooks.ts';
import {HookFailure} from '../../harness-kit/hooks.ts';
import {describeToolCall, parseMcpToolName} from '../../harness-kit/tool-call.ts';
import {unsupportedDecision} from './permission.ts';
import {toPlanEvent} from './plan.ts';
import {acpTools} from './tools.ts';

/** The fields of an ACP tool call (`tool_call`, `tool_call_update` or a permission request's `toolCall`) read here. */
export interface AcpToolCallFields {
  toolCallId: string;
  title?: string | null;
  name?: string | null;
  status?: string | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  content?: unknown[] | null;
}

interface Seen {
  call: ToolCall;
  ended: boolean;
  decision?: 'deny';
}

export class AcpTurnUpdates {
  readonly #emit: (event: AgentEvent) => void;
  readonly #hooks: AgentHooks;
  readonly #servers: readonly string[];
  readonly #fail: (error: unknown) => void;
  readonly #calls = new Map<string, Seen>();
  #text = '';
  /** After-tool hooks still running, awaited before the turn's result. */
  #pending: Promise<void> = Promise.resolve();
  /** Updates of a replayed conversation (`session/load`) are not this turn's. */
  muted = false;

  constructor(options: {
    emit: (event: AgentEvent) => void;
    hooks: AgentHooks;
    servers: readonly string[];
    fail: (error: unknown) => void;
  }) {
    this.#emit = options.emit;
    this.#hooks = options.hooks;
    this.#servers = options.servers;
    this.#fail = options.fail;
  }

  startTurn(): void {
    this.#text = '';
  }

  /** The reply text of the turn so far. */
  text(): string {
    return this.#text;
  }

  /** Waits for the after-tool hooks of the turn. */
  async settle(): Promise<void> {
    await this.#pending;
  }

  /** One `session/update`. */
  onUpdate(update: {sessionUpdate: string} & Record<string, unknown>): void {
    if (this.muted) return;
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        const content = update.content as {type?: string; text?: string} | undefined;
        if (content?.type === 'text' && typeof content.text === 'string') this.#text += content.text;
        break;
      }
      case 'tool_call':
      case 'tool_call_update':
        this.#onToolCall(update as unknown as AcpToolCallFields);
        break;
      case 'plan': {
        const plan = toPlanEvent(update);
        if (plan !== undefined) this.#emit(plan);
        break;
      }
      default:
    }
  }

  /** The call as hooks see it, reporting `tool.start` when the call is first seen. */
  see(fields: AcpToolCallFields): Seen {
    let seen = this.#calls.get(fields.toolCallId);
    if (seen === undefined) {
      const name = fields.name ?? fields.title ?? 'tool';
      seen = {
        call: describeToolCall(acpTools, name, fields.rawInput, findMcpTool(name, this.#servers)),
        ended: false,
      };
      this.#calls.set(fields.toolCallId, seen);
      this.#emit({type: 'tool.start', id: fields.toolCallId, call: seen.call});
    } else if (isRecord(fields.rawInput) && Object.keys(seen.call.input).length === 0) {
      seen.call = {...seen.call, input: {...fields.rawInput}};
    }
    return seen;
  }

  /** A call the beforeTool hook denied: its end reports the decision. */
  deny(toolCallId: string): void {
    const seen = this.#calls.get(toolCallId);
    if (seen !== undefined) seen.decision = 'deny';
  }

  #onToolCall(fields: AcpToolCallFields): void {
    const seen = this.see(fields);
    if (seen.ended || (fields.status !== 'completed' && fields.status !== 'failed')) return;
    seen.ended = true;
    const result = fields.rawOutput ?? fields.content ?? undefined;
    const ok = fields.status === 'completed' && seen.decision === undefined;
    this.#emit({
      type: 'tool.end',
      id: fields.toolCallId,
      call: seen.call,
      ok,
      ...(result === undefined ? {} : {result}),
      ...(seen.decision === undefined ? {} : {decision: seen.decision}),
      ...(ok || seen.decision !== undefined ? {} : {error: describeFailure(result)}),
    });
    const afterTool = this.#hooks.afterTool;
    if (afterTool === undefined || !ok) return;
    this.#pending = this.#pending.then(async () => {
      try {
        const decision = await afterTool({...seen.call, result});
        if (decision?.action === 'withhold') this.#fail(unsupportedDecision('afterTool', 'withhold'));
      } catch (error) {
        this.#fail(new HookFailure('afterTool', error));
      }
    });
  }
}

/**
 * The MCP server and tool of a call, as agents name them: `mcp__<server>__<tool>` (Claude Code and its ACP
 * adapter) or `<server>_<tool>` (OpenCode), for a selected server.
 */
function findMcpTool(name: string, servers: readonly string[]): {server: string; tool: string} | undefined {
  const parsed = parseMcpToolName(name, servers);
  if (parsed !== undefined) return parsed;
  const server = [...servers].sort((a, b) => b.length - a.length).find((s) => name.startsWith(`${s}_`));
  return server === undefined ? undefined : {server, tool: name.slice(server.length + 1)};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeFailure(result: unknown): string {
  if (result === undefined) return 'The tool call failed.';
  return typeof result === 'string' ? result : JSON.stringify(result).slice(0, 500);
}
