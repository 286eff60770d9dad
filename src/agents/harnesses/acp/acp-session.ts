/**
 * One ACP session on its agent process: `initialize`, `session/new`, then one `session/prompt` per turn.
 * Cancellation (the turn's signal, or a hook failure) is `session/cancel`; the agent then ends the prompt with
 * `stopReason: cancelled`. A process that ends mid-session fails the turn with what it wrote to stderr, and the
 * session stays unusable. HTTP MCP headers refreshed between turns reach the agent through `session/load` (same
 * session, new servers) where the agent advertises `loadSession`; otherwise the turn fails rather than calling
 * with stale credentials.
 */
import type {
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import type {AcpAgentProcess} from './agent-process.ts';
import {acpInitFailure, acpRunFailure, describeError} from './failures.ts';
import {type AcpMcpServer, toAcpMcpServers} from './mcp-servers.ts';
import {selectAcpModel} from './model-option.ts';
import {decidePermission} from './permission.ts';
import {readStructuredReply, withOutputRequest} from './structured-output.ts';
import {AcpTurnUpdates} from './turn-updates.ts';

type AcpModule = typeof import('@agentclientprotocol/sdk');
type Connection = ReturnType<ReturnType<AcpModule['client']>['connect']>;

/** How long the agent may take to answer `initialize` and `session/new` (its MCP servers start in the latter). */
const startTimeoutMs = 120_000;
/** How long a failed prompt waits for the process's end to tell why (a crash closes the connection first). */
const endGraceMs = 5000;

interface AgentCapabilities {
  loadSession?: boolean;
  mcpCapabilities?: {http?: boolean; sse?: boolean};
}

export class AcpSession implements HarnessSession {
  readonly #agent: AcpAgentProcess;
  readonly #options: HarnessSessionOptions;
  readonly #command: string;
  readonly #updates: AcpTurnUpdates;
  #connection: Connection | undefined;
  #sessionId = '';
  #capabilities: AgentCapabilities = {};
  /** The servers as the session was last given them (headers included). */
  #serversJson: string;
  #turns = 0;
  #turnFailure: unknown;
  #running = false;
  #ended: string | undefined;
  #closed = false;

  private constructor(agent: AcpAgentProcess, options: HarnessSessionOptions, command: string) {
    this.#agent = agent;
    this.#options = options;
    this.#command = command;
    this.#serversJson = JSON.stringify(options.mcpServers);
    this.#updates = new AcpTurnUpdates({
      emit: options.emit,
      hooks: options.hooks,
      servers: options.mcpServers.map((server) => server.name),
      fail: (error) => this.#failTurn(error),
    });
    void agent.exited.then((reason) => {
      this.#ended = reason;
    });
  }

  /** Starts the ACP session on a started agent process. */
  static async start(options: {
    sdk: AcpModule;
    agent: AcpAgentProcess;
    options: HarnessSessionOptions;
    command: string;
  }): Promise<AcpSession> {
    const session = new AcpSession(options.agent, options.options, options.command);
    await session.#open(options.sdk);
    return session;
  }

  async #open(sdk: AcpModule): Promise<void> {
    const o = this.#options;
    const app = sdk
      .client({name: 'stratos'})
      .onNotification('session/update', ({params}) => {
        if (params.sessionId === this.#sessionId)
          this.#updates.onUpdate(params.update as {sessionUpdate: string} & Record<string, unknown>);
      })
      .onRequest('session/request_permission', async ({params}) => {
        const seen = this.#updates.see(params.toolCall);
        return (await decidePermission({
          call: seen.call,
          options: params.options,
          hooks: o.hooks,
          fail: (error) => this.#failTurn(error),
          deny: () => this.#updates.deny(params.toolCall.toolCallId),
        })) as never;
      });
    this.#connection = app.connect(sdk.ndJsonStream(this.#agent.input, this.#agent.output));
    const agent = this.#connection.agent;
    const initialized = await this.#starting(
      'initialize',
      agent.request('initialize', {
        protocolVersion: sdk.PROTOCOL_VERSION,
        clientCapabilities: {fs: {readTextFile: false, writeTextFile: false}, terminal: false},
      }),
    );
    this.#capabilities = (initialized.agentCapabilities ?? {}) as AgentCapabilities;
    const created = await this.#starting(
      'session/new',
      agent.request('session/new', {
        cwd: o.workingDirectory,
        mcpServers: this.#servers(o.mcpServers) as never,
      }),
    );
    this.#sessionId = created.sessionId;
    if (o.model !== undefined)
      await selectAcpModel({
        agent: o.agent,
        command: this.#command,
        model: o.model,
        configOptions: created.configOptions ?? [],
        set: (configId, value) =>
          this.#starting(
            'session/set_config_option',
            agent.request('session/set_config_option', {
              sessionId: this.#sessionId,
              configId,
              value,
            } as never),
          ),
      });
  }

  #servers(servers: readonly AgentMcpServer[]): AcpMcpServer[] {
    return toAcpMcpServers(servers, this.#capabilities.mcpCapabilities, this.#options.agent, this.#command);
  }

  /** A start-up request, failed with the agent's own words when it errs, exits or does not answer in time. */
  async #starting<T>(method: string, request: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            acpInitFailure(
              this.#options.agent,
              `the agent '${this.#command}' did not answer ${method} within ${startTimeoutMs / 1000} s. Check that it speaks the Agent Client Protocol on stdio (for OpenCode: command: opencode, args: [acp]).`,
            ),
          ),
        startTimeoutMs,
      );
    });
    try {
      return await Promise.race([request, this.#exit(method, 'init'), timeout]);
    } catch (error) {
      if (error instanceof Error && 'code' in error && String(error.code).startsWith('STRATOS_')) throw error;
      throw acpInitFailure(
        this.#options.agent,
        `the agent '${this.#command}' failed ${method}: ${describeError(error)}.${this.#stderr()}`,
        error,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Rejects when the agent process ends. */
  async #exit(step: string, phase: 'init' | 'run'): Promise<never> {
    const reason = await this.#agent.exited;
    const message = `the agent process '${this.#command}' ended during ${step} (${reason}).${this.#stderr()}`;
    throw phase === 'init'
      ? acpInitFailure(this.#options.agent, message)
      : acpRunFailure(this.#options.agent, message);
  }

  #stderr(): string {
    const tail = this.#agent.stderrTail();
    return tail === '' ? '' : ` Its stderr ends with: ${tail.slice(-1000)}`;
  }

  /** How the process ended, waiting a little for an end that is under way; undefined while it runs. */
  async #waitForEnd(): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), endGraceMs);
    });
    try {
      return await Promise.race([this.#agent.exited, grace]);
    } finally {
      clearTimeout(timer);
    }
  }

  #failTurn(error: unknown): void {
    if (!this.#running || this.#turnFailure !== undefined) return;
    this.#turnFailure = error;
    this.#cancel();
  }

  #cancel(): void {
    void this.#connection?.agent.notify('session/cancel', {sessionId: this.#sessionId}).catch(() => {});
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    const o = this.#options;
    if (this.#closed || this.#connection === undefined)
      throw acpRunFailure(o.agent, 'the ACP session was closed; create a new agent to go on.');
    if (this.#ended !== undefined)
      throw acpRunFailure(
        o.agent,
        `the agent process '${this.#command}' has ended (${this.#ended}); create a new agent to go on.${this.#stderr()}`,
      );
    await this.#refreshServers(options.mcpServers);
    this.#running = true;
    this.#turnFailure = undefined;
    this.#updates.startTurn();
    const onAbort = () => this.#cancel();
    options.signal.addEventListener('abort', onAbort, {once: true});
    try {
      const first =
        this.#turns === 0 && o.systemPrompt !== undefined ? `${o.systemPrompt}\n\n${prompt}` : prompt;
      this.#turns += 1;
      if (options.signal.aborted) throw options.signal.reason;
      const response = await Promise.race([
        this.#connection.agent.request('session/prompt', {
          sessionId: this.#sessionId,
          prompt: [{type: 'text', text: withOutputRequest(first, o.outputJsonSchema)}],
        }),
        this.#exit('a prompt', 'run'),
      ]);
      await this.#updates.settle();
      if (this.#turnFailure !== undefined) throw this.#turnFailure;
      if (options.signal.aborted) throw options.signal.reason;
      if (response.stopReason === 'cancelled')
        throw acpRunFailure(o.agent, 'the agent cancelled the turn on its own.');
      if (response.stopReason === 'refusal')
        throw acpRunFailure(o.agent, 'the agent refused to go on with the prompt (stopReason refusal).');
      const usage = (response as {usage?: AcpUsage | null}).usage;
      if (usage != null) o.emit({type: 'usage', ...toTokenCounts(usage)});
      const text = this.#updates.text();
      if (text !== '') o.emit({type: 'text', text});
      if (o.outputJsonSchema === undefined) return {text};
      const structured = readStructuredReply(text);
      return structured === undefined ? {text} : {text, structured};
    } catch (error) {
      await this.#updates.settle();
      if (this.#turnFailure !== undefined) throw this.#turnFailure;
      if (options.signal.aborted) throw options.signal.reason;
      if (error instanceof Error && 'code' in error && String(error.code).startsWith('STRATOS_')) throw error;
      // A closed connection is usually the process ending: its exit and last stderr words say why.
      const ended = await this.#waitForEnd();
      if (ended !== undefined)
        throw acpRunFailure(
          o.agent,
          `the agent process '${this.#command}' ended during a prompt (${ended}).${this.#stderr()}`,
          error,
        );
      throw acpRunFailure(o.agent, `the prompt failed: ${describeError(error)}.${this.#stderr()}`, error);
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      this.#running = false;
    }
  }

  /** Hands the agent HTTP servers whose headers changed since the session was given them. */
  async #refreshServers(servers: readonly AgentMcpServer[]): Promise<void> {
    const json = JSON.stringify(servers);
    if (json === this.#serversJson) return;
    const o = this.#options;
    if (this.#capabilities.loadSession !== true)
      throw acpRunFailure(
        o.agent,
        `the credentials of its HTTP MCP servers changed, and the agent '${this.#command}' cannot take new servers in a running session (it does not advertise loadSession). Create a new agent to go on with the new credentials.`,
      );
    this.#updates.muted = true;
    try {
      await this.#connection!.agent.request('session/load', {
        sessionId: this.#sessionId,
        cwd: o.workingDirectory,
        mcpServers: this.#servers(servers) as never,
      });
    } finally {
      this.#updates.muted = false;
    }
    this.#serversJson = json;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#running) this.#cancel();
    this.#connection?.close();
    await this.#agent.stop();
  }
}

interface AcpUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedReadTokens?: number | null;
  cachedWriteTokens?: number | null;
}

/** ACP's turn usage (where the agent reports it) as Stratos's token counts; an absent count stays absent. */
function toTokenCounts(usage: AcpUsage) {
  return {
    ...(typeof usage.inputTokens === 'number' ? {inputTokens: usage.inputTokens} : {}),
    ...(typeof usage.outputTokens === 'number' ? {outputTokens: usage.outputTokens} : {}),
    ...(typeof usage.cachedReadTokens === 'number' ? {cacheReadInputTokens: usage.cachedReadTokens} : {}),
    ...(typeof usage.cachedWriteTokens === 'number'
      ? {cacheCreationInputTokens: usage.cachedWriteTokens}
      : {}),
  };
}
