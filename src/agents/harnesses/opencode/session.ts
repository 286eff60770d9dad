/**
 * One OpenCode conversation: one OpenCode session on the `opencode serve` process the agent owns (./process.ts);
 * each turn is one prompt of that session, observed through the event stream (./turn-events.ts) and answered
 * from the prompt's response (./translate-events.ts). Cancelling and a failing control hook (the MCP hook bridge)
 * abort the prompt; closing stops the server and the bridge. Native options: ./native-options.ts.
 */
import {AgentRunError} from '../../../errors/agent-run-error.ts';
import type {
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import type {HookFailure} from '../../harness-kit/hooks.ts';
import type {McpHookBridge} from '../../harness-kit/mcp-hook-bridge.ts';
import {checkOpenCodeMcpStartup} from './mcp-startup.ts';
import {findModelRejection} from './model-rejection.ts';
import {type ModelRef, toNativeRemote, toPromptBody} from './native-options.ts';
import type {OpenCodeServer} from './process.ts';
import {type OpenCodePromptData, translatePromptResult} from './translate-events.ts';
import type {OpenCodeTurnEvents} from './turn-events.ts';

export type OpenCodeClient = ReturnType<typeof import('@opencode-ai/sdk')['createOpencodeClient']>;

/** What the session owns and ends at close. */
export interface OpenCodeSessionParts {
  client: OpenCodeClient;
  /** The OpenCode session's id. */
  id: string;
  model: ModelRef | undefined;
  server: OpenCodeServer;
  bridge: McpHookBridge | undefined;
  events: OpenCodeTurnEvents;
}

export class OpenCodeSession implements HarnessSession {
  #options: HarnessSessionOptions;
  #parts: OpenCodeSessionParts;
  /** Each HTTP server as OpenCode was last configured with it (headers included). */
  #serverJson = new Map<string, string>();
  #running: AbortController | undefined;
  #hookFailure: HookFailure | undefined;
  #closed = false;

  constructor(options: HarnessSessionOptions, parts: OpenCodeSessionParts) {
    for (const server of options.mcpServers) this.#serverJson.set(server.name, JSON.stringify(server));
    this.#options = options;
    this.#parts = parts;
  }

  /** The OpenCode session's id, journaled so that a resumed run continues it (./open-session.ts). */
  conversationId(): string {
    return this.#parts.id;
  }

  /** A control hook threw: stop the running prompt; `run` rejects with the hook failure. */
  failTurn(failure: HookFailure): void {
    if (this.#running === undefined || this.#hookFailure !== undefined) return;
    this.#hookFailure = failure;
    this.#running.abort(failure);
    this.#abortPrompt();
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    if (this.#closed)
      throw this.#failure('the OpenCode conversation was closed; create a new agent to go on.');
    const {client, id, bridge, events} = this.#parts;
    if (bridge !== undefined) await bridge.update(options.mcpServers);
    else await this.#refreshServers(options.mcpServers);
    const controller = new AbortController();
    this.#running = controller;
    this.#hookFailure = undefined;
    const onAbort = () => {
      controller.abort(options.signal.reason);
      this.#abortPrompt();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, {once: true});
    try {
      const o = this.#options;
      await checkOpenCodeMcpStartup(
        client,
        o.agent,
        o.mcpServers.map((server) => server.name),
      );
      events.startTurn(o.emit);
      const response = await client.session.prompt({
        path: {id},
        body: toPromptBody(o, this.#parts.model, prompt) as Parameters<
          OpenCodeClient['session']['prompt']
        >[0]['body'] &
          object,
        signal: controller.signal,
      });
      // The model and tool boundaries of the turn, as the event stream reports them, before the agent span ends.
      await events.finishTurn(response.data !== undefined);
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      if (options.signal.aborted) throw options.signal.reason;
      if (response.data === undefined)
        throw (
          (await findModelRejection(client, id, response.error, o.model)) ??
          this.#failure(`OpenCode failed the prompt: ${describeError(response.error)}`)
        );
      const {usage, outcome} = translatePromptResult(
        response.data as unknown as OpenCodePromptData,
        events.turnUsage(),
      );
      if (usage !== undefined) o.emit({type: 'usage', ...usage});
      if (outcome.kind === 'error')
        throw (
          (await findModelRejection(client, id, outcome.error, o.model)) ??
          this.#failure(`OpenCode failed the turn: ${describeError(outcome.error)}`)
        );
      if (outcome.kind === 'answer' && outcome.result.text !== '')
        o.emit({type: 'text', text: outcome.result.text});
      return outcome.result;
    } catch (error) {
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      if (options.signal.aborted) throw options.signal.reason;
      throw error;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      void events.finishTurn(false);
      this.#running = undefined;
    }
  }

  #abortPrompt(): void {
    void this.#parts.client.session.abort({path: {id: this.#parts.id}}).catch(() => {});
  }

  /**
   * Credentials were rechecked before this request (refreshAgentMcpServers): an HTTP server whose headers changed
   * is replaced in OpenCode's live MCP configuration (`POST /mcp`, which reconnects it with the new headers) before
   * the prompt. Stdio servers keep their process; their environment is fixed when they start.
   */
  async #refreshServers(servers: readonly AgentMcpServer[]): Promise<void> {
    for (const server of servers) {
      if (server.type !== 'http') continue;
      const json = JSON.stringify(server);
      if (this.#serverJson.get(server.name) === json) continue;
      const config = toNativeRemote(server);
      const response = await this.#parts.client.mcp.add({body: {name: server.name, config}});
      if (response.error !== undefined)
        throw this.#failure(
          `OpenCode did not take the refreshed configuration of MCP server '${server.name}': ${describeError(response.error)}`,
        );
      this.#serverJson.set(server.name, json);
    }
  }

  #failure(message: string): AgentRunError {
    return new AgentRunError(message, {agent: this.#options.agent, harness: 'opencode'});
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#running?.abort(new Error('The OpenCode conversation was closed.'));
    this.#parts.events.close();
    await this.#parts.server.stop();
    await this.#parts.bridge?.close();
  }
}

/** An OpenCode error object (or any value) as message text. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
