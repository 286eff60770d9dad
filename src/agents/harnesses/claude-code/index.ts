/**
 * The Claude Code adapter, over @anthropic-ai/claude-agent-sdk. One streaming query holds the conversation
 * between prompts (the process stays up); each execute pushes one user message and waits for its result.
 * Isolation: `settingSources: []` (no user, project or local settings) and `strictMcpConfig` (only the MCP
 * servers Stratos passes). Control hooks are native PreToolUse / PostToolUse callbacks, awaited by the binary.
 * Observations: partial messages are on, so each model call is seen from the binary's `requesting` status to the
 * response's `message_stop`, with the usage of its `message_start` / `message_delta` (the usage on streamed
 * assistant messages is a partial count); tool calls from PreToolUse to PostToolUse(Failure) or a denial.
 * Sub-agents, background tasks and compaction: `spawned-work.ts`.
 */
import {randomUUID} from 'node:crypto';
import type {
  HookCallbackMatcher,
  HookEvent,
  McpServerConfig,
  Options,
  Query,
  SDKMessage,
  SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import {AgentRunError, StratosError} from '../../../errors/index.ts';
import type {
  AgentHarness,
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import {type AgentEvent, HookFailure, type TokenCounts} from '../../harness-kit/hooks.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {ModelUnavailableError} from '../../harness-kit/model-unavailable-error.ts';
import {describeToolCall, parseMcpToolName} from '../../harness-kit/tool-call.ts';
import {MessageQueue} from './message-queue.ts';
import {claudeCodeSdk} from './sdk.ts';
import {SpawnedWork} from './spawned-work.ts';
import {claudeCodeTools} from './tools.ts';

/**
 * Tools that wait for a person (questions, plan approval). Agents run noninteractively, and the binary offers them
 * only because Stratos answers permission requests itself (`canUseTool`): removed, so they cost no request tokens.
 */
const interactiveTools = ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'];

/** Tools Claude Code uses for its own machinery; hooks do not see them (events and telemetry do). */
const internalTools = new Set(['ToolSearch', 'StructuredOutput']);
/** How long an interrupted turn may take to stop before the process is closed. */
const interruptGraceMs = 10_000;

export const claudeCodeHarness: AgentHarness = {
  id: 'claude-code',
  continuesConversations: true,
  async createSession(options) {
    const sdk = await importHarnessSdk(
      'claude-code',
      claudeCodeSdk,
      () => import('@anthropic-ai/claude-agent-sdk'),
    );
    return new ClaudeCodeSession(sdk.query, options);
  },
};

/** Usage fields of the Messages API (`message_start` message usage, `message_delta` usage, result usage). */
interface NativeUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

interface PendingTurn {
  resolve: (result: HarnessTurnResult) => void;
  reject: (error: unknown) => void;
  texts: string[];
  hookFailure: HookFailure | undefined;
  cancelled: unknown;
  /** The uuid of the prompt's user message: the result that answers it echoes it. */
  uuid: string;
  /** Claude Code reported `model_not_found` for the conversation's first request, before any other work. */
  modelUnavailable?: {status: number | undefined};
}

class ClaudeCodeSession implements HarnessSession {
  #options: HarnessSessionOptions;
  #query: Query;
  #input = new MessageQueue<SDKUserMessage>();
  #turn: PendingTurn | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #ended: Error | undefined;
  #mcpJson: string;
  #reader: Promise<void>;
  /** The model response being streamed (main conversation only): its model and the usage reported so far. */
  #response: {model?: string; usage: NativeUsage} | undefined;
  /** Set by the first output, reasoning or tool work: after it, a rejection is no longer a selection matter. */
  #worked = false;
  /** Tasks, sub-agent messages and compaction, reported whether or not a prompt runs. */
  #spawned = new SpawnedWork();
  /** Claude Code's session id, from its messages: a resumed run continues the conversation with it. */
  #sessionId: string | undefined;

  constructor(
    query: (params: {prompt: AsyncIterable<SDKUserMessage>; options: Options}) => Query,
    options: HarnessSessionOptions,
  ) {
    this.#options = {
      ...options,
      emit: (event) => {
        if (event.type !== 'model.start' && event.type !== 'model.end' && event.type !== 'usage')
          this.#worked = true;
        options.emit(event);
      },
    };
    this.#mcpJson = JSON.stringify(options.mcpServers);
    this.#query = query({prompt: this.#input, options: this.#nativeOptions()});
    this.#reader = this.#read();
  }

  #nativeOptions(): Options {
    const o = this.#options;
    return {
      cwd: o.workingDirectory,
      env: o.env,
      settingSources: [],
      strictMcpConfig: true,
      mcpServers: toNativeServers(o.mcpServers, o.workingDirectory),
      disallowedTools: [...o.tools.removed, ...interactiveTools],
      ...(o.model === undefined ? {} : {model: o.model}),
      ...(o.resumeConversation === undefined ? {} : {resume: o.resumeConversation}),
      ...(o.effort === undefined ? {} : {effort: o.effort as NonNullable<Options['effort']>}),
      ...(o.systemPrompt === undefined ? {} : {systemPrompt: o.systemPrompt}),
      ...(o.outputJsonSchema === undefined
        ? {}
        : {outputFormat: {type: 'json_schema', schema: o.outputJsonSchema}}),
      // Enabled tools are approved by default; control belongs to the before-tool hook.
      canUseTool: async (_name, input) => ({behavior: 'allow', updatedInput: input}),
      hooks: this.#nativeHooks(),
      // Stream events carry the real boundaries and final usage of each model call (see the file comment).
      includePartialMessages: true,
      stderr: () => {},
    };
  }

  #nativeHooks(): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    const {hooks, emit, mcpServers} = this.#options;
    const servers = mcpServers.map((server) => server.name);
    const view = (name: string, input: unknown) =>
      describeToolCall(claudeCodeTools, name, input, parseMcpToolName(name, servers));
    return {
      PreToolUse: [
        {
          hooks: [
            async (input) => {
              const event = input as {
                tool_name: string;
                tool_input: unknown;
                tool_use_id: string;
                agent_id?: string;
              };
              const origin = this.#spawned.originOf(event.agent_id);
              const allow = {
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse' as const,
                  permissionDecision: 'allow' as const,
                },
              };
              const call = view(event.tool_name, event.tool_input);
              const id = event.tool_use_id;
              emit({type: 'tool.start', id, call, ...origin});
              if (internalTools.has(event.tool_name) || hooks.beforeTool === undefined) return allow;
              const decision = await this.#control(
                'beforeTool',
                () => hooks.beforeTool!(call),
                () =>
                  emit({
                    type: 'tool.end',
                    id,
                    call,
                    ok: false,
                    error: 'The beforeTool hook threw.',
                    ...origin,
                  }),
              );
              if (decision === undefined || decision === null || decision.action === 'allow') return allow;
              if (decision.action === 'deny') {
                emit({
                  type: 'tool.end',
                  id,
                  call,
                  ok: false,
                  decision: 'deny',
                  error: decision.feedback,
                  ...origin,
                });
                return {
                  hookSpecificOutput: {
                    hookEventName: 'PreToolUse' as const,
                    permissionDecision: 'deny' as const,
                    permissionDecisionReason: decision.feedback,
                  },
                };
              }
              return {hookSpecificOutput: {...allow.hookSpecificOutput, updatedInput: decision.input}};
            },
          ],
        },
      ],
      PostToolUse: [
        {
          hooks: [
            async (input) => {
              const event = input as {
                tool_name: string;
                tool_input: unknown;
                tool_use_id: string;
                tool_response: unknown;
                agent_id?: string;
              };
              const call = view(event.tool_name, event.tool_input);
              const id = event.tool_use_id;
              const origin = this.#spawned.originOf(event.agent_id);
              const ended = (end: Omit<Extract<AgentEvent, {type: 'tool.end'}>, 'type' | 'id' | 'call'>) =>
                emit({type: 'tool.end', id, call, ...end, ...origin});
              if (internalTools.has(event.tool_name) || hooks.afterTool === undefined) {
                ended({ok: true, result: event.tool_response});
                return {};
              }
              const decision = await this.#control(
                'afterTool',
                () => hooks.afterTool!({...call, result: event.tool_response}),
                () => ended({ok: false, error: 'The afterTool hook threw.'}),
              );
              if (decision === undefined || decision === null || decision.action === 'keep') {
                ended({ok: true, result: event.tool_response});
                return {};
              }
              ended({ok: false, decision: 'withhold', error: decision.feedback});
              return {
                hookSpecificOutput: {
                  hookEventName: 'PostToolUse' as const,
                  ...(call.mcp === undefined
                    ? {updatedToolOutput: decision.feedback}
                    : {updatedMCPToolOutput: {content: [{type: 'text', text: decision.feedback}]}}),
                },
              };
            },
          ],
        },
      ],
      PostToolUseFailure: [
        {
          hooks: [
            async (input) => {
              const event = input as {
                tool_name: string;
                tool_input: unknown;
                tool_use_id: string;
                error: string;
                agent_id?: string;
              };
              emit({
                type: 'tool.end',
                id: event.tool_use_id,
                call: view(event.tool_name, event.tool_input),
                ok: false,
                error: event.error,
                ...this.#spawned.originOf(event.agent_id),
              });
              return {};
            },
          ],
        },
      ],
    };
  }

  /** Runs a control hook; a throw fails the turn (the binary would otherwise carry on as if nothing happened). */
  async #control<T>(hook: string, fn: () => T | Promise<T>, onThrow: () => void): Promise<T | undefined> {
    try {
      return await fn();
    } catch (error) {
      onThrow();
      const failure = new HookFailure(hook, error);
      const turn = this.#turn;
      if (turn !== undefined && turn.hookFailure === undefined) {
        turn.hookFailure = failure;
        void this.#query.interrupt().catch(() => {});
      }
      throw failure;
    }
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    if (this.#ended !== undefined) throw this.#ended;
    if (this.#closed)
      throw new AgentRunError(
        'the Claude Code conversation was closed after an earlier turn did not stop; create a new agent to go on.',
        {agent: this.#options.agent, harness: 'claude-code'},
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
        texts: [],
        hookFailure: undefined,
        cancelled: undefined,
        uuid: randomUUID(),
      };
      this.#turn = turn;
      const onAbort = () => {
        turn.cancelled = options.signal.reason;
        void this.#query.interrupt().catch(() => {});
        // The binary normally ends the turn at once; if it does not, end the process.
        setTimeout(() => {
          if (this.#turn === turn) {
            this.#settle(undefined, options.signal.reason);
            void this.close();
          }
        }, interruptGraceMs).unref();
      };
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

  async #read(): Promise<void> {
    try {
      for await (const message of this.#query) this.#handle(message);
      this.#ended ??= new AgentRunError(
        'the Claude Code process ended, so the conversation cannot go on; create a new agent to start another.',
        {agent: this.#options.agent, harness: 'claude-code'},
      );
    } catch (error) {
      this.#ended ??= new AgentRunError(
        `the Claude Code process failed: ${error instanceof Error ? error.message : String(error)}`,
        {agent: this.#options.agent, harness: 'claude-code', cause: error},
      );
    }
    if (this.#turn !== undefined) this.#settle(undefined, this.#ended);
  }

  conversationId(): string | undefined {
    return this.#sessionId;
  }

  #handle(message: SDKMessage): void {
    if (message.session_id !== '') this.#sessionId = message.session_id;
    // Spawned work and compaction are reported whether or not a prompt is running: they belong where they began.
    if (this.#spawned.observe(message, this.#options.emit)) return;
    const turn = this.#turn;
    if (turn === undefined) return;
    if (message.type === 'system' && message.subtype === 'init') {
      this.#checkMcpStartup(message.mcp_servers);
      return;
    }
    if (message.type === 'system' && message.subtype === 'status' && message.status === 'requesting') {
      // The binary is sending a model request: the start of a model call as Claude Code reports it.
      this.#options.emit({type: 'model.start'});
      return;
    }
    if (message.type === 'stream_event') {
      if (message.event.type === 'content_block_start') this.#worked = true;
      // Subagents' model calls (parent_tool_use_id set) are not reported: they belong to their spawning tool call.
      if (message.parent_tool_use_id === null) this.#observeStream(message.event);
      return;
    }
    if (message.type === 'assistant') {
      if (message.error !== undefined && message.parent_tool_use_id === null) {
        // Structured evidence (the SDK's error class, with the HTTP status) that the model is unavailable.
        // Its text is Claude Code's own notice about the error, not model output.
        if (message.error === 'model_not_found' && !this.#worked) {
          turn.modelUnavailable = {
            status: (message as {api_error_status?: number | null}).api_error_status ?? undefined,
          };
          this.#response = undefined;
          this.#options.emit({type: 'model.end', error: message.error});
          return;
        }
        this.#response = undefined;
        this.#options.emit({type: 'model.end', error: message.error});
      }
      for (const block of message.message.content) {
        if (block.type === 'text' && block.text !== '') {
          turn.texts.push(block.text);
          this.#options.emit({type: 'text', text: block.text});
        }
      }
      return;
    }
    if (message.type !== 'result') return;
    // A turn Claude Code started on its own (to read a background task's notification) answers no prompt of ours.
    const answered = (message as {user_message_uuids?: string[]}).user_message_uuids;
    if (answered !== undefined && !answered.includes(turn.uuid)) return;
    this.#options.emit({type: 'usage', ...tokenCounts(message.usage as NativeUsage)});
    if (message.subtype === 'success' && !message.is_error) {
      const structured = (message as {structured_output?: unknown}).structured_output;
      this.#settle({
        text: message.result,
        ...(structured === undefined ? {} : {structured: {value: structured}}),
      });
      return;
    }
    const reason =
      message.subtype === 'success'
        ? message.result
        : `${message.subtype}${message.errors.length > 0 ? `: ${message.errors.join('; ')}` : ''}`;
    if (turn.modelUnavailable !== undefined && !this.#worked) {
      this.#settle(
        undefined,
        new ModelUnavailableError(
          `Claude Code could not use model '${this.#options.model ?? 'default'}': ${reason}`,
          {
            evidence: 'model_not_found',
            status: turn.modelUnavailable.status,
          },
        ),
      );
      return;
    }
    this.#settle(
      undefined,
      new AgentRunError(`Claude Code ended the turn with an error (${reason}).`, {
        agent: this.#options.agent,
        harness: 'claude-code',
      }),
    );
  }

  /**
   * Claude Code waits for the selected MCP servers before its first request and reports each one's status; one
   * that failed would leave the model without the tools the author selected, so the session stops instead: this
   * turn and every later one fail with the server's name.
   */
  #checkMcpStartup(statuses: readonly {name: string; status: string}[]): void {
    const selected = new Set(this.#options.mcpServers.map((server) => server.name));
    const failed = statuses.filter((s) => selected.has(s.name) && s.status === 'failed').map((s) => s.name);
    if (failed.length === 0) return;
    const names = failed.map((name) => `'${name}'`).join(', ');
    this.#ended = new StratosError(
      'STRATOS_MCP_CONNECT_FAILED',
      `Agent '${this.#options.agent}' (claude-code) could not start its MCP server${failed.length > 1 ? 's' : ''} ${names}; the execution stopped rather than run without ${failed.length > 1 ? 'them' : 'it'}. Check that the server's command or URL in mcp.servers of workflow.yaml works on its own.`,
      {details: {agent: this.#options.agent, harness: 'claude-code', servers: failed}},
    );
    this.#settle(undefined, this.#ended);
    void this.close();
  }

  /** One streaming event of the main conversation: a model response begins, reports usage, ends. */
  #observeStream(event: Extract<SDKMessage, {type: 'stream_event'}>['event']): void {
    switch (event.type) {
      case 'message_start':
        this.#response = {model: event.message.model, usage: {...(event.message.usage as NativeUsage)}};
        return;
      case 'message_delta': {
        // The delta's counts are cumulative for the message and final; a count it leaves out keeps its start value.
        const response = this.#response ?? {usage: {}};
        this.#response = response;
        for (const [key, value] of Object.entries(event.usage as NativeUsage)) {
          if (typeof value === 'number') response.usage[key as keyof NativeUsage] = value;
        }
        return;
      }
      case 'message_stop': {
        const response = this.#response;
        this.#response = undefined;
        this.#options.emit({
          type: 'model.end',
          ...(response?.model === undefined ? {} : {model: response.model}),
          ...tokenCounts(response?.usage ?? {}),
        });
        return;
      }
      default:
        return;
    }
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

/** Reported counts only; input tokens include cache reads and writes (the GenAI convention's input count). */
function tokenCounts(usage: NativeUsage): TokenCounts {
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

function toNativeServers(
  servers: readonly AgentMcpServer[],
  workingDirectory: string,
): Record<string, McpServerConfig> {
  const native: Record<string, McpServerConfig> = {};
  for (const server of servers) {
    if (server.type === 'http') {
      native[server.name] = {type: 'http', url: server.url, headers: server.headers};
      continue;
    }
    // Claude Code starts stdio servers in the agent's directory; Stratos's contract is the workflow directory.
    const inPlace = server.cwd === undefined || server.cwd === workingDirectory;
    native[server.name] = inPlace
      ? {type: 'stdio', command: server.command, args: server.args, env: server.env}
      : {
          type: 'stdio',
          command: '/bin/sh',
          args: ['-c', 'cd "$0" && exec "$@"', server.cwd!, server.command, ...server.args],
          env: server.env,
        };
  }
  return native;
}
