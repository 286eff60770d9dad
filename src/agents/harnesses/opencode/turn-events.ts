/**
 * OpenCode's event stream (`GET /event`) as the shared agent observations: the subscription, and what it has seen
 * of the running turn (each part's translation is ./translate-events.ts). The turn telemetry makes model and tool
 * spans of the observations, siblings under the agent span.
 *
 * One subscription belongs to one session and lives as long as it. The stream delivers a turn's last parts about
 * when the prompt's response arrives, so `finishTurn` waits for the session's `session.idle` (briefly) before the
 * agent span ends.
 */
import type {AgentEvent, TokenCounts} from '../../harness-kit/hooks.ts';
import {type ToolCallProgress, translateStepPart, translateToolPart} from './translate-events.ts';

/** The part of the OpenCode client the subscription uses. */
export interface OpenCodeEventClient {
  event: {
    subscribe(options: {signal: AbortSignal; sseMaxRetryAttempts?: number}): Promise<{
      stream: AsyncGenerator<unknown>;
    }>;
  };
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
  readonly #tools = new Map<string, ToolCallProgress>();
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
    const emit = this.#emit;
    if (emit === undefined) return;
    if (part.type === 'step-start' || part.type === 'step-finish') {
      const key = `${part.type} ${part.id}`;
      if (this.#seenSteps.has(key)) return;
      this.#seenSteps.add(key);
      const event = translateStepPart(part, this.#models.get(part.messageID), reportedAt);
      if (event.type === 'model.end' && event.inputTokens !== undefined)
        this.#addUsage(event as Required<TokenCounts>);
      emit(event);
      return;
    }
    if (part.type !== 'tool') return;
    const translated = translateToolPart(part, this.#tools.get(part.callID), this.#servers, reportedAt);
    this.#tools.set(part.callID, translated.progress);
    for (const event of translated.events) emit(event);
  }

  #addUsage(counts: Required<TokenCounts>): void {
    const total = this.#turnUsage;
    const add = (key: keyof TokenCounts) => (total?.[key] ?? 0) + counts[key];
    this.#turnUsage = {
      inputTokens: add('inputTokens'),
      outputTokens: add('outputTokens'),
      cacheReadInputTokens: add('cacheReadInputTokens'),
      cacheCreationInputTokens: add('cacheCreationInputTokens'),
    };
  }
}

function resolvers(): {promise: Promise<void>; resolve: () => void} {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return {promise, resolve};
}
