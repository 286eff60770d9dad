/**
 * The Claude Code adapter, over @anthropic-ai/claude-agent-sdk. One streaming query holds the conversation
 * between prompts (the process stays up); each execute pushes one user message and waits for its result.
 * Isolation: `settingSources: []` (no user, project or local settings) and `strictMcpConfig` (only the MCP
 * servers Stratos passes). Control hooks are native PreToolUse / PostToolUse callbacks, awaited by the binary.
 */
import type {
  HookCallbackMatcher,
  HookEvent,
  McpServerConfig,
  Options,
  Query,
  SDKMessage,
  SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type {
  AgentHarness,
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import {HookFailure} from '../../hooks.ts';
import {importHarnessSdk} from '../../load-harness.ts';
import {describeToolCall, parseMcpToolName} from '../../tool-call.ts';
import {checkClaudeAuthentication} from './authentication.ts';

/**
 * Tools that wait for a person (questions, plan approval). Agents run noninteractively, and the binary offers them
 * only because Stratos answers permission requests itself (`canUseTool`): removed, so they cost no request tokens.
 */
const interactiveTools = ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'];

/** Tools Claude Code uses for its own machinery; hooks do not see them. */
const internalTools = new Set(['ToolSearch', 'StructuredOutput']);
/** How long an interrupted turn may take to stop before the process is closed. */
const interruptGraceMs = 10_000;

export const claudeCodeHarness: AgentHarness = {
  id: 'claude-code',
  packageName: '@anthropic-ai/claude-agent-sdk',
  checkAuthentication: checkClaudeAuthentication,
  async createSession(options) {
    const sdk = await importHarnessSdk('claude-code', () => import('@anthropic-ai/claude-agent-sdk'));
    return new ClaudeCodeSession(sdk.query, options);
  },
};

interface PendingTurn {
  resolve: (result: HarnessTurnResult) => void;
  reject: (error: unknown) => void;
  texts: string[];
  hookFailure: HookFailure | undefined;
  cancelled: unknown;
}

class ClaudeCodeSession implements HarnessSession {
  #options: HarnessSessionOptions;
  #query: Query;
  #input = new MessageQueue<SDKUserMessage>();
  #turn: PendingTurn | undefined;
  #closed = false;
  #ended: Error | undefined;
  #mcpJson: string;
  #reader: Promise<void>;

  constructor(
    query: (params: {prompt: AsyncIterable<SDKUserMessage>; options: Options}) => Query,
    options: HarnessSessionOptions,
  ) {
    this.#options = options;
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
      ...(o.effort === undefined ? {} : {effort: o.effort as NonNullable<Options['effort']>}),
      ...(o.systemPrompt === undefined ? {} : {systemPrompt: o.systemPrompt}),
      ...(o.outputJsonSchema === undefined
        ? {}
        : {outputFormat: {type: 'json_schema', schema: o.outputJsonSchema}}),
      // Enabled tools are approved by default; control belongs to the before-tool hook.
      canUseTool: async (_name, input) => ({behavior: 'allow', updatedInput: input}),
      hooks: this.#nativeHooks(),
      stderr: () => {},
    };
  }

  #nativeHooks(): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    const {hooks, emit, mcpServers} = this.#options;
    const servers = mcpServers.map((server) => server.name);
    const view = (name: string, input: unknown) =>
      describeToolCall('claude-code', name, input, parseMcpToolName(name, servers));
    return {
      PreToolUse: [
        {
          hooks: [
            async (input) => {
              const event = input as {tool_name: string; tool_input: unknown};
              const allow = {
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse' as const,
                  permissionDecision: 'allow' as const,
                },
              };
              if (internalTools.has(event.tool_name)) return allow;
              const call = view(event.tool_name, event.tool_input);
              emit({type: 'tool.start', call});
              if (hooks.beforeTool === undefined) return allow;
              const decision = await this.#control('beforeTool', () => hooks.beforeTool!(call));
              if (decision === undefined || decision === null || decision.action === 'allow') return allow;
              if (decision.action === 'deny') {
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
              const event = input as {tool_name: string; tool_input: unknown; tool_response: unknown};
              if (internalTools.has(event.tool_name)) return {};
              const call = view(event.tool_name, event.tool_input);
              emit({type: 'tool.end', call, ok: true});
              if (hooks.afterTool === undefined) return {};
              const decision = await this.#control('afterTool', () =>
                hooks.afterTool!({...call, result: event.tool_response}),
              );
              if (decision === undefined || decision === null || decision.action === 'keep') return {};
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
              const event = input as {tool_name: string; tool_input: unknown};
              if (!internalTools.has(event.tool_name))
                emit({type: 'tool.end', call: view(event.tool_name, event.tool_input), ok: false});
              return {};
            },
          ],
        },
      ],
    };
  }

  /** Runs a control hook; a throw fails the turn (the binary would otherwise carry on as if nothing happened). */
  async #control<T>(hook: string, fn: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (error) {
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
    if (this.#closed) throw new Error('The Claude Code conversation was closed after a turn did not stop.');
    const mcpJson = JSON.stringify(options.mcpServers);
    if (mcpJson !== this.#mcpJson) {
      // Credentials changed between requests: update the live configuration before the next prompt.
      await this.#query.setMcpServers(toNativeServers(options.mcpServers, this.#options.workingDirectory));
      this.#mcpJson = mcpJson;
    }
    return new Promise<HarnessTurnResult>((resolve, reject) => {
      const turn: PendingTurn = {resolve, reject, texts: [], hookFailure: undefined, cancelled: undefined};
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
        message: {role: 'user', content: prompt},
        parent_tool_use_id: null,
        session_id: '',
      } as SDKUserMessage);
    });
  }

  async #read(): Promise<void> {
    try {
      for await (const message of this.#query) this.#handle(message);
      this.#ended = new Error('The Claude Code process ended.');
    } catch (error) {
      this.#ended = error instanceof Error ? error : new Error(String(error));
    }
    if (this.#turn !== undefined) this.#settle(undefined, this.#ended);
  }

  #handle(message: SDKMessage): void {
    const turn = this.#turn;
    if (turn === undefined) return;
    if (message.type === 'assistant') {
      for (const block of message.message.content) {
        if (block.type === 'text' && block.text !== '') {
          turn.texts.push(block.text);
          this.#options.emit({type: 'text', text: block.text});
        }
      }
      return;
    }
    if (message.type !== 'result') return;
    this.#options.emit({
      type: 'usage',
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
    });
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
    this.#settle(undefined, new Error(`Claude Code ended the turn with an error (${reason}).`));
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.end();
    this.#query.close();
    await this.#reader;
  }
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

/** The streaming prompt: an async iterable the session pushes user messages into. */
class MessageQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #ended = false;

  push(item: T): void {
    if (this.#waiting !== undefined) {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting({value: item, done: false});
    } else this.#items.push(item);
  }

  end(): void {
    this.#ended = true;
    this.#waiting?.({value: undefined, done: true});
    this.#waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({value: item, done: false});
        if (this.#ended) return Promise.resolve({value: undefined, done: true});
        return new Promise((resolve) => {
          this.#waiting = resolve;
        });
      },
    };
  }
}
