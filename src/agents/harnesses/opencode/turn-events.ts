/**
 * OpenCode's event stream (`GET /event`) as the shared agent observations. OpenCode reports each model call of a
 * turn as a `step-start` part and a `step-finish` part (with that call's token counts) of the assistant message,
 * and each tool call as a `tool` part whose state goes `pending`, `running`, then `completed` or `error`. These
 * become `model.start` / `model.end` and `tool.start` / `tool.end` with the times OpenCode reports (a tool state's
 * `time.start` / `time.end`, else the event's own time: the stream delivers events in batches, later); the
 * turn telemetry makes model and tool spans of them, siblings under the agent span. Nothing is inferred: a
 * boundary OpenCode does not report makes no span.
 *
 * One subscription belongs to one session and lives as long as it. The stream delivers a turn's last parts about
 * when the prompt's response arrives, so `finishTurn` waits for the session's `session.idle` (briefly) before the
 * agent span ends.
 */
import type {AgentEvent, TokenCounts} from '../../harness-kit/hooks.ts';
import {describeToolCall} from '../../harness-kit/tool-call.ts';
import {openCodeTools} from './tools.ts';

/** The part of the OpenCode client the subscription uses. */
export interface OpenCodeEventClient {
  event: {
    subscribe(options: {signal: AbortSignal; sseMaxRetryAttempts?: number}): Promise<{
      stream: AsyncGenerator<unknown>;
    }>;
  };
}

interface NativeTokens {
  input: number;
  output: number;
  cache?: {read?: number; write?: number};
}

// biome-ignore lint/suspicious/noExplicitAny: OpenCode's event union, read defensively
type NativeEvent = {type: string; properties: any};

/** How long a finished prompt waits for the stream to report the session idle. */
const idleWaitMs = 2000;

export class OpenCodeTurnEvents {
  readonly #sessionId: string;
  readonly #servers: readonly string[];
  readonly #closing = new AbortController();
  #emit: ((event: AgentEvent) => void) | undefined;
  #idle: (() => void) | undefined;
  /** The model of each assistant message, as OpenCode reports it (the provider's model id). */
  readonly #models = new Map<string, string>();
  readonly #seenSteps = new Set<string>();
  readonly #tools = new Map<string, 'started' | 'ended'>();
  /** The running turn's model calls' counts, added up. */
  #turnUsage: Required<TokenCounts> | undefined;

  /**
   * @param sessionId the session whose events count
   * @param servers the selected MCP server names: OpenCode names their tools `<server>_<tool>`
   */
  constructor(sessionId: string, servers: readonly string[]) {
    this.#sessionId = sessionId;
    this.#servers = [...servers].sort((a, b) => b.length - a.length);
  }

  /** Subscribes and resolves once OpenCode confirmed the subscription (`server.connected`). */
  async open(client: OpenCodeEventClient): Promise<void> {
    const {stream} = await client.event.subscribe({signal: this.#closing.signal, sseMaxRetryAttempts: 0});
    const connected = resolvers();
    void (async () => {
      try {
        for await (const event of stream) {
          const native = event as NativeEvent;
          if (native.type === 'server.connected') connected.resolve();
          else this.#observe(native);
        }
      } catch {}
      connected.resolve();
      this.#idle?.();
    })();
    await connected.promise;
  }

  /** Observations from now on go to `emit`, until finishTurn. */
  startTurn(emit: (event: AgentEvent) => void): void {
    this.#emit = emit;
    this.#turnUsage = undefined;
  }

  /**
   * The usage of the whole turn: the sum of its model calls as the stream reported them (the prompt's response
   * carries only its last message's counts); undefined when no model call was reported.
   */
  turnUsage(): TokenCounts | undefined {
    return this.#turnUsage;
  }

  /** Waits (briefly) until the stream reported the session idle, then stops reporting to the turn. */
  async finishTurn(completed: boolean): Promise<void> {
    if (completed && this.#emit !== undefined) {
      const idle = resolvers();
      this.#idle = idle.resolve;
      const timer = setTimeout(idle.resolve, idleWaitMs);
      await idle.promise;
      clearTimeout(timer);
      this.#idle = undefined;
    }
    this.#emit = undefined;
  }

  close(): void {
    this.#closing.abort();
    this.#idle?.();
  }

  #observe(event: NativeEvent): void {
    const properties = event.properties ?? {};
    const sessionId = this.#sessionId;
    switch (event.type) {
      case 'session.idle':
        if (properties.sessionID === sessionId) this.#idle?.();
        return;
      case 'message.updated': {
        const info = properties.info;
        if (info?.sessionID === sessionId && info.role === 'assistant')
          this.#models.set(info.id, info.modelID);
        return;
      }
      case 'message.part.updated': {
        const part = properties.part;
        if (part?.sessionID === sessionId)
          this.#observePart(part, typeof properties.time === 'number' ? properties.time : undefined);
        return;
      }
      default:
        return;
    }
  }

  // biome-ignore lint/suspicious/noExplicitAny: one part of OpenCode's Part union
  #observePart(part: any, reportedAt: number | undefined): void {
    const at = (time: unknown) =>
      typeof time === 'number' ? {at: time} : reportedAt === undefined ? {} : {at: reportedAt};
    const emit = this.#emit;
    if (emit === undefined) return;
    if (part.type === 'step-start' || part.type === 'step-finish') {
      const key = `${part.type} ${part.id}`;
      if (this.#seenSteps.has(key)) return;
      this.#seenSteps.add(key);
      if (part.type === 'step-start') emit({type: 'model.start', ...at(undefined)});
      else {
        const model = this.#models.get(part.messageID);
        const counts = toTokenCounts(part.tokens);
        if (counts.inputTokens !== undefined) this.#addUsage(counts as Required<TokenCounts>);
        emit({
          type: 'model.end',
          ...at(undefined),
          ...(model === undefined ? {} : {model}),
          ...counts,
        });
      }
      return;
    }
    if (part.type !== 'tool') return;
    const state = part.state ?? {};
    const seen = this.#tools.get(part.callID);
    if (seen === 'ended' || state.status === 'pending') return;
    const call = this.#describe(part.tool, state.input);
    if (seen === undefined) {
      this.#tools.set(part.callID, 'started');
      emit({type: 'tool.start', id: part.callID, call, ...at(state.time?.start)});
    }
    if (state.status === 'completed' || state.status === 'error') {
      this.#tools.set(part.callID, 'ended');
      emit({
        type: 'tool.end',
        id: part.callID,
        call,
        ok: state.status === 'completed',
        ...(state.status === 'completed' && state.output !== undefined ? {result: state.output} : {}),
        ...at(state.time?.end),
        ...(state.status === 'error' && typeof state.error === 'string' ? {error: state.error} : {}),
      });
    }
  }

  #addUsage(counts: Required<TokenCounts>): void {
    const total = this.#turnUsage;
    this.#turnUsage =
      total === undefined
        ? {...counts}
        : {
            inputTokens: total.inputTokens + counts.inputTokens,
            outputTokens: total.outputTokens + counts.outputTokens,
            cacheReadInputTokens: total.cacheReadInputTokens + counts.cacheReadInputTokens,
            cacheCreationInputTokens: total.cacheCreationInputTokens + counts.cacheCreationInputTokens,
          };
  }

  /** MCP tools in the shared shape (`mcp__<server>__<tool>`), built-in ones by their native name. */
  #describe(tool: string, input: unknown) {
    const server = this.#servers.find((name) => tool.startsWith(`${name}_`));
    if (server === undefined) return describeToolCall(openCodeTools, tool, input, undefined);
    const mcp = {server, tool: tool.slice(server.length + 1)};
    return describeToolCall(openCodeTools, `mcp__${mcp.server}__${mcp.tool}`, input, mcp);
  }
}

/** OpenCode's counts as reported; input includes the cached tokens, as for the other harnesses. */
function toTokenCounts(tokens: NativeTokens | undefined): TokenCounts {
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

function resolvers(): {promise: Promise<void>; resolve: () => void} {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return {promise, resolve};
}
