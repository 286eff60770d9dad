/**
 * One Claude Code conversation. One streaming query holds the conversation between prompts (the process stays
 * up); each turn pushes one user message and waits for the result that answers it. Cancelling interrupts the
 * binary (the process is closed when it does not stop in time); closing ends the query and waits for its output.
 * Native options: ./native-options.ts; tool hooks: ./tool-hooks.ts; messages to observations: ./translate-events.ts
 * and ./spawned-work.ts; the streaming prompt: ./message-queue.ts.
 */
import {randomUUID} from 'node:crypto';
import type {Options, Query, SDKMessage, SDKUserMessage} from '@anthropic-ai/claude-agent-sdk';
import {AgentRunError} from '../../../errors/index.ts';
import {describeError} from '../../../internal/describe-error.ts';
import type {
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import type {HookFailure} from '../../harness-kit/hooks.ts';
import {ModelUnavailableError} from '../../harness-kit/model-unavailable-error.ts';
import {MessageQueue} from './message-queue.ts';
import {toNativeOptions, toNativeServers} from './native-options.ts';
import {SpawnedWork} from './spawned-work.ts';
import {createNativeToolHooks} from './tool-hooks.ts';
import {
  createNativeBudgetError,
  findMcpStartupFailure,
  readAssistantTexts,
  type StreamedResponse,
  translateResult,
  translateStreamEvent,
} from './translate-events.ts';

/** How long an interrupted turn may take to stop before the process is closed. */
const interruptGraceMs = 10_000;

/** The SDK's `query`. */
export type ClaudeQuery = (params: {prompt: AsyncIterable<SDKUserMessage>; options: Options}) => Query;

interface PendingTurn {
  resolve: (result: HarnessTurnResult) => void;
  reject: (error: unknown) => void;
  hookFailure: HookFailure | undefined;
  cancelled: unknown;
  /** The uuid of the prompt's user message: the result that answers it echoes it. */
  uuid: string;
  /** Claude Code reported `model_not_found` for the conversation's first request, before any other work. */
  modelUnavailable?: {status: number | undefined};
}

export class ClaudeCodeSession implements HarnessSession {
  #options: HarnessSessionOptions;
  #query: Query;
  #input = new MessageQueue<SDKUserMessage>();
  #turn: PendingTurn | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #ended: Error | undefined;
  #mcpJson: string;
  #reader: Promise<void>;
  /** Claude Code's session id, from its messages: a resumed run continues the conversation with it. */
  #sessionId: string | undefined;
  /** The model response being streamed (main conversation only). */
  #response: StreamedResponse | undefined;
  /** Set by the first output, reasoning or tool work: after it, a rejection is no longer a selection matter. */
  #worked = false;
  /** Tasks, sub-agent messages and compaction, reported whether or not a prompt runs. */
  #spawned = new SpawnedWork();

  constructor(query: ClaudeQuery, options: HarnessSessionOptions) {
    const emit = options.emit;
    this.#options = {
      ...options,
      emit: (event) => {
        if (event.type !== 'model.start' && event.type !== 'model.end' && event.type !== 'usage')
          this.#worked = true;
        emit(event);
      },
    };
    this.#mcpJson = JSON.stringify(options.mcpServers);
    const hooks = createNativeToolHooks({
      hooks: options.hooks,
      emit: this.#options.emit,
      mcpServers: options.mcpServers,
      originOf: (agentId) => this.#spawned.originOf(agentId),
      onHookFailure: (failure) => this.#failTurn(failure),
    });
    this.#query = query({prompt: this.#input, options: toNativeOptions(this.#options, hooks)});
    this.#reader = this.#read();
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    if (this.#ended !== undefined) throw this.#ended;
    if (this.#closed)
      throw this.#failure(
        'the Claude Code conversation was closed after an earlier turn did not stop; create a new agent to go on.',
      );
    const mcpJson = JSON.stringify(options.mcpServers);
    if (mcpJson !== this.#mcpJson) {
      // Credentials changed between requests: update the live configuration before the next prompt.
      await this.#query.setMcpServers(toNativeServers(options.mcpServers, this.#options.workingDirectory));
      this.#mcpJson = mcpJson;
    }
    return new Promise<HarnessTurnResult>((resolve, reject) => {
      const turn: PendingTurn = {
        resolve,
        reject,
        hookFailure: undefined,
        cancelled: undefined,
        uuid: randomUUID(),
      };
      this.#turn = turn;
      const onAbort = () => this.#cancel(turn, options.signal.reason);
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, {once: true});
      this.#input.push({
        type: 'user',
        uuid: turn.uuid,
        message: {role: 'user', content: prompt},
        parent_tool_use_id: null,
        session_id: '',
      } as SDKUserMessage);
    });
  }

  /** Interrupts the turn; the binary normally ends it at once, and if it does not, the process is closed. */
  #cancel(turn: PendingTurn, reason: unknown): void {
    turn.cancelled = reason;
    void this.#query.interrupt().catch(() => {});
    setTimeout(() => {
      if (this.#turn === turn) {
        this.#settle(undefined, reason);
        void this.close();
      }
    }, interruptGraceMs).unref();
  }

  /** A control hook threw: the running turn fails with it, and the binary is interrupted. */
  #failTurn(failure: HookFailure): void {
    const turn = this.#turn;
    if (turn === undefined || turn.hookFailure !== undefined) return;
    turn.hookFailure = failure;
    void this.#query.interrupt().catch(() => {});
  }

  async #read(): Promise<void> {
    try {
      for await (const message of this.#query) this.#handle(message);
      this.#ended ??= this.#failure(
        'the Claude Code process ended, so the conversation cannot go on; create a new agent to start another.',
      );
    } catch (error) {
      this.#ended ??= new AgentRunError(`the Claude Code process failed: ${describeError(error)}`, {
        agent: this.#options.agent,
        harness: 'claude-code',
        cause: error,
      });
    }
    if (this.#turn !== undefined) this.#settle(undefined, this.#ended);
  }

  conversationId(): string | undefined {
    return this.#sessionId;
  }

  #handle(message: SDKMessage): void {
    if (message.session_id !== '') this.#sessionId = message.session_id;
    const emit = this.#options.emit;
    // Spawned work and compaction are reported whether or not a prompt is running: they belong where they began.
    if (this.#spawned.observe(message, emit)) return;
    const turn = this.#turn;
    if (turn === undefined) return;
    if (message.type === 'system' && message.subtype === 'init') {
      this.#checkMcpStartup(message.mcp_servers);
    } else if (message.type === 'system' && message.subtype === 'status' && message.status === 'requesting') {
      // The binary is sending a model request: the start of a model call as Claude Code reports it.
      emit({type: 'model.start'});
    } else if (message.type === 'stream_event') {
      if (message.event.type === 'content_block_start') this.#worked = true;
      // Subagents' model calls (parent_tool_use_id set) are not reported: they belong to their spawning tool call.
      if (message.parent_tool_use_id !== null) return;
      const translated = translateStreamEvent(message.event, this.#response);
      this.#response = translated.response;
      if (translated.event !== undefined) emit(translated.event);
    } else if (message.type === 'assistant') {
      if (message.error !== undefined && message.parent_tool_use_id === null) {
        // Structured evidence (the SDK's error class, with the HTTP status) that the model is unavailable.
        // Its text is Claude Code's own notice about the error, not model output.
        const unavailable = message.error === 'model_not_found' && !this.#worked;
        this.#response = undefined;
        emit({type: 'model.end', error: message.error});
        if (unavailable) {
          const status = (message as {api_error_status?: number | null}).api_error_status ?? undefined;
          turn.modelUnavailable = {status};
          return;
        }
      }
      for (const text of readAssistantTexts(message)) emit({type: 'text', text});
    } else if (message.type === 'result') {
      this.#finish(turn, message);
    }
  }

  #finish(turn: PendingTurn, message: Extract<SDKMessage, {type: 'result'}>): void {
    const translated = translateResult(message, turn.uuid);
    if (translated === undefined) return;
    this.#options.emit({type: 'usage', ...translated.usage});
    const {outcome} = translated;
    if (outcome.ok) this.#settle(outcome.result);
    else if (turn.modelUnavailable !== undefined && !this.#worked)
      this.#settle(
        undefined,
        new ModelUnavailableError(
          `Claude Code could not use model '${this.#options.model ?? 'default'}': ${outcome.reason}`,
          {evidence: 'model_not_found', status: turn.modelUnavailable.status},
        ),
      );
    else if (outcome.budgetExceeded === true)
      this.#settle(
        undefined,
        createNativeBudgetError(this.#options.agent, outcome.reason, {
          spentUsd: translated.usage.nativeCostUsd,
          limitUsd: this.#options.maxBudgetUsd,
        }),
      );
    else
      this.#settle(undefined, this.#failure(`Claude Code ended the turn with an error (${outcome.reason}).`));
  }

  /** A selected MCP server failed to start (./translate-events.ts): this turn and every later one fail. */
  #checkMcpStartup(statuses: readonly {name: string; status: string}[]): void {
    const {agent, mcpServers} = this.#options;
    const selected = mcpServers.map((server) => server.name);
    const error = findMcpStartupFailure(agent, statuses, selected);
    if (error === undefined) return;
    this.#ended = error;
    this.#settle(undefined, error);
    void this.close();
  }

  #settle(result: HarnessTurnResult | undefined, error?: unknown): void {
    const turn = this.#turn;
    if (turn === undefined) return;
    this.#turn = undefined;
    if (turn.hookFailure !== undefined) turn.reject(turn.hookFailure);
    else if (turn.cancelled !== undefined) turn.reject(turn.cancelled);
    else if (result !== undefined) turn.resolve(result);
    else turn.reject(error);
  }

  #failure(message: string): AgentRunError {
    return new AgentRunError(message, {agent: this.#options.agent, harness: 'claude-code'});
  }

  /**
   * Ends the process; every call (the session's own after a failed MCP start-up, then the run's cleanup) waits
   * until its output has ended, so a run never finishes before the process it started.
   */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#closed = true;
      this.#input.end();
      this.#query.close();
      this.#closing = this.#reader;
    }
    return this.#closing;
  }
}
