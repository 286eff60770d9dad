/**
 * The OpenCode adapter, over @opencode-ai/sdk with the `opencode` binary of `opencode-ai`. One agent is one
 * OpenCode session on one `opencode serve` process that the agent owns (./server-process.ts); each execute is one
 * prompt of that session. Isolation: the whole configuration is passed as OPENCODE_CONFIG_CONTENT, with project
 * configuration, Claude Code compatibility, default plugins, LSP downloads, the model catalog fetch, auto-update
 * and sharing disabled; the small (title) model is the selected model, so no other model is called.
 * `OPENAI_BASE_URL` makes `openai/<model>` an OpenAI-compatible (chat completions) provider at that URL.
 * Tool hooks go through the in-process MCP hook bridge (MCP tools only), as on Codex.
 */

import {AgentRunError} from '../../../errors/agent-run-error.ts';
import {StratosError} from '../../../errors/stratos-error.ts';
import {resolveMcpRequestTimeoutMs} from '../../../mcp/client/request-timeout.ts';
import type {
  AgentHarness,
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import type {HookFailure} from '../../harness-kit/hooks.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {
  type McpHookBridge,
  needsMcpHookBridge,
  startMcpHookBridge,
} from '../../harness-kit/mcp-hook-bridge.ts';
import {checkOpenCodeMcpStartup} from './mcp-startup.ts';
import {findModelRejection} from './model-rejection.ts';
import {resolveOpenCodeOllama} from './ollama-provider.ts';
import {openCodeSdk} from './sdk.ts';
import {type OpenCodeServer, startOpenCodeServer} from './server-process.ts';
import {OpenCodeTurnEvents} from './turn-events.ts';

type OpenCodeModule = typeof import('@opencode-ai/sdk');
type OpenCodeClient = ReturnType<OpenCodeModule['createOpencodeClient']>;

/** Tools that wait for a person: always removed. */
const interactiveTools = ['question'];

export const openCodeHarness: AgentHarness = {
  id: 'opencode',
  async createSession(options) {
    const sdk = await importHarnessSdk('opencode', openCodeSdk, () => import('@opencode-ai/sdk'));
    let bridge: McpHookBridge | undefined;
    let server: OpenCodeServer | undefined;
    let session: OpenCodeSession | undefined;
    let events: OpenCodeTurnEvents | undefined;
    try {
      if (needsMcpHookBridge(options.hooks, options.mcpServers)) {
        bridge = await startMcpHookBridge({
          hooks: options.hooks,
          servers: options.mcpServers,
          onHookFailure: (failure) => session?.failTurn(failure),
        });
      }
      // provider: ollama (./ollama-provider.ts): the local model as it is named, on the user's server only.
      const local =
        options.provider === 'ollama' ? resolveOpenCodeOllama(options.model!, options.env) : undefined;
      const model = local?.model ?? toNativeModel(splitModel(options.model), options.env);
      server = await startOpenCodeServer({
        cwd: options.workingDirectory,
        env: {
          ...(local?.env ?? options.env),
          OPENCODE_CONFIG_CONTENT: JSON.stringify({
            ...nativeConfig(options, model, bridge),
            ...local?.config,
          }),
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
          OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
          OPENCODE_DISABLE_SHARE: '1',
          OPENCODE_DISABLE_CLAUDE_CODE: '1',
          OPENCODE_DISABLE_PROJECT_CONFIG: '1',
        },
      });
      const client = sdk.createOpencodeClient({baseUrl: server.url, directory: options.workingDirectory});
      const created = await client.session.create({body: {}});
      if (created.data === undefined)
        throw new StratosError(
          'STRATOS_AGENT_INIT_FAILED',
          `Agent '${options.agent}' (opencode): OpenCode did not create a session: ${describe(created.error)}`,
          {details: {agent: options.agent, harness: 'opencode'}},
        );
      events = new OpenCodeTurnEvents(
        created.data.id,
        options.mcpServers.map((s) => s.name),
      );
      await events.open(client);
      session = new OpenCodeSession(client, created.data.id, options, model, server, bridge, events);
      return session;
    } catch (error) {
      events?.close();
      await server?.stop();
      await bridge?.close();
      throw error;
    }
  },
};

interface ModelRef {
  providerID: string;
  modelID: string;
}

/** `<provider>/<model>` as OpenCode names models. */
function splitModel(model: string | undefined): ModelRef | undefined {
  if (model === undefined) return undefined;
  const slash = model.indexOf('/');
  if (slash <= 0)
    throw new StratosError(
      'STRATOS_AGENT_CONFIG_INVALID',
      `The OpenCode model '${model}' must be written <provider>/<model>, for example openai/gpt-5.`,
    );
  return {providerID: model.slice(0, slash), modelID: model.slice(slash + 1)};
}

/**
 * OpenCode's built-in `openai` provider speaks the Responses API; with OPENAI_BASE_URL, `openai/<model>` becomes a
 * chat-completions provider of its own id at that URL instead.
 */
const baseUrlProvider = 'openai-base-url';

function toNativeModel(model: ModelRef | undefined, env: Record<string, string>): ModelRef | undefined {
  const baseUrl = env.OPENAI_BASE_URL;
  if (model === undefined || model.providerID !== 'openai' || baseUrl === undefined || baseUrl === '')
    return model;
  return {providerID: baseUrlProvider, modelID: model.modelID};
}

function nativeConfig(
  options: HarnessSessionOptions,
  model: ModelRef | undefined,
  bridge: McpHookBridge | undefined,
) {
  const name = model === undefined ? undefined : `${model.providerID}/${model.modelID}`;
  const baseUrl = options.env.OPENAI_BASE_URL;
  const removed = [...options.tools.removed, ...interactiveTools];
  return {
    autoupdate: false,
    share: 'disabled',
    plugin: [],
    ...(name === undefined ? {} : {model: name, small_model: name}),
    ...(baseUrl !== undefined && model?.providerID === baseUrlProvider
      ? {
          provider: {
            [baseUrlProvider]: {
              npm: '@ai-sdk/openai-compatible',
              name: 'OpenAI (OPENAI_BASE_URL)',
              options: {baseURL: baseUrl, apiKey: '{env:OPENAI_API_KEY}'},
              models: {[model.modelID]: {name: model.modelID, tool_call: true}},
            },
          },
        }
      : {}),
    tools: Object.fromEntries(removed.map((tool) => [tool, false])),
    mcp: bridge === undefined ? nativeServers(options.mcpServers) : bridgedServers(bridge),
  };
}

function nativeServers(servers: readonly AgentMcpServer[]): Record<string, unknown> {
  const native: Record<string, unknown> = {};
  for (const server of servers) {
    native[server.name] =
      server.type === 'http'
        ? nativeRemote(server)
        : {
            type: 'local',
            // OpenCode has no working-directory option for local servers.
            command:
              server.cwd === undefined
                ? [server.command, ...server.args]
                : ['/bin/sh', '-c', 'cd "$0" && exec "$@"', server.cwd, server.command, ...server.args],
            environment: server.env,
            enabled: true,
            timeout: mcpTimeoutMs(),
          };
  }
  return native;
}

/**
 * A selected HTTP server with the headers Stratos resolved. OpenCode's own OAuth detection is off: Stratos signs
 * in and refreshes (credentials never go through OpenCode's auth storage).
 */
function nativeRemote(server: Extract<AgentMcpServer, {type: 'http'}>) {
  return {
    type: 'remote' as const,
    url: server.url,
    headers: server.headers,
    oauth: false as const,
    enabled: true,
    timeout: mcpTimeoutMs(),
  };
}

/**
 * How long OpenCode waits for a server's tool list: Stratos's MCP request limit. OpenCode's own default (a few
 * seconds) leaves a slow server's tools out of the turn on a loaded machine.
 */
function mcpTimeoutMs(): number {
  return resolveMcpRequestTimeoutMs();
}

function bridgedServers(bridge: McpHookBridge): Record<string, unknown> {
  return Object.fromEntries(
    bridge.endpoints.map((endpoint) => [
      endpoint.name,
      {
        type: 'remote',
        url: endpoint.url,
        headers: {authorization: `Bearer ${bridge.token}`},
        oauth: false,
        enabled: true,
        timeout: mcpTimeoutMs(),
      },
    ]),
  );
}

class OpenCodeSession implements HarnessSession {
  #client: OpenCodeClient;
  #id: string;
  #options: HarnessSessionOptions;
  #model: ModelRef | undefined;
  #server: OpenCodeServer;
  #bridge: McpHookBridge | undefined;
  #events: OpenCodeTurnEvents;
  /** Each HTTP server as OpenCode was last configured with it (headers included). */
  #serverJson = new Map<string, string>();
  #running: AbortController | undefined;
  #hookFailure: HookFailure | undefined;
  #closed = false;

  constructor(
    client: OpenCodeClient,
    id: string,
    options: HarnessSessionOptions,
    model: ModelRef | undefined,
    server: OpenCodeServer,
    bridge: McpHookBridge | undefined,
    events: OpenCodeTurnEvents,
  ) {
    this.#events = events;
    for (const server of options.mcpServers) this.#serverJson.set(server.name, JSON.stringify(server));
    this.#client = client;
    this.#id = id;
    this.#options = options;
    this.#model = model;
    this.#server = server;
    this.#bridge = bridge;
  }

  failTurn(failure: HookFailure): void {
    if (this.#running === undefined || this.#hookFailure !== undefined) return;
    this.#hookFailure = failure;
    this.#running.abort(failure);
    void this.#client.session.abort({path: {id: this.#id}}).catch(() => {});
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    if (this.#closed)
      throw this.#failure('the OpenCode conversation was closed; create a new agent to go on.');
    if (this.#bridge !== undefined) await this.#bridge.update(options.mcpServers);
    else await this.#refreshServers(options.mcpServers);
    const controller = new AbortController();
    this.#running = controller;
    this.#hookFailure = undefined;
    const onAbort = () => {
      controller.abort(options.signal.reason);
      void this.#client.session.abort({path: {id: this.#id}}).catch(() => {});
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, {once: true});
    try {
      const selected = this.#options.mcpServers.map((server) => server.name);
      await checkOpenCodeMcpStartup(this.#client, this.#options.agent, selected);
      const o = this.#options;
      const body = {
        parts: [{type: 'text' as const, text: prompt}],
        ...(this.#model === undefined ? {} : {model: this.#model}),
        ...(o.systemPrompt === undefined ? {} : {system: o.systemPrompt}),
        ...(o.effort === undefined ? {} : {variant: o.effort}),
        ...(o.outputJsonSchema === undefined
          ? {}
          : {format: {type: 'json_schema', schema: o.outputJsonSchema}}),
      };
      this.#events.startTurn(this.#options.emit);
      const response = await this.#client.session.prompt({
        path: {id: this.#id},
        body: body as Parameters<OpenCodeClient['session']['prompt']>[0]['body'] & object,
        signal: controller.signal,
      });
      // The model and tool boundaries of the turn, as the event stream reports them, before the agent span ends.
      await this.#events.finishTurn(response.data !== undefined);
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      if (options.signal.aborted) throw options.signal.reason;
      const data = response.data;
      if (data === undefined)
        throw (
          (await findModelRejection(this.#client, this.#id, response.error, o.model)) ??
          this.#failure(`OpenCode failed the prompt: ${describe(response.error)}`)
        );
      const info = data.info as typeof data.info & {structured?: unknown};
      const tokens = info.tokens;
      const usage =
        this.#events.turnUsage() ??
        (tokens === undefined
          ? undefined
          : {
              inputTokens: tokens.input + tokens.cache.read + tokens.cache.write,
              outputTokens: tokens.output,
              cacheReadInputTokens: tokens.cache.read,
              cacheCreationInputTokens: tokens.cache.write,
            });
      if (usage !== undefined) this.#options.emit({type: 'usage', ...usage});
      // No structured result (the model answered in prose): the agent reports STRATOS_AGENT_OUTPUT_MISSING.
      if ((info.error as {name?: string} | undefined)?.name === 'StructuredOutputError')
        return {text: textOf(data.parts)};
      if (info.error !== undefined)
        throw (
          (await findModelRejection(this.#client, this.#id, info.error, o.model)) ??
          this.#failure(`OpenCode failed the turn: ${describe(info.error)}`)
        );
      const text = textOf(data.parts);
      if (text !== '') this.#options.emit({type: 'text', text});
      return {text, ...(info.structured === undefined ? {} : {structured: {value: info.structured}})};
    } catch (error) {
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      if (options.signal.aborted) throw options.signal.reason;
      throw error;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      void this.#events.finishTurn(false);
      this.#running = undefined;
    }
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
      const response = await this.#client.mcp.add({body: {name: server.name, config: nativeRemote(server)}});
      if (response.error !== undefined)
        throw this.#failure(
          `OpenCode did not take the refreshed configuration of MCP server '${server.name}': ${describe(response.error)}`,
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
    this.#events.close();
    await this.#server.stop();
    await this.#bridge?.close();
  }
}

function textOf(parts: readonly {type: string}[]): string {
  return parts
    .filter((part) => part.type === 'text')
    .map((part) => (part as {text?: string}).text ?? '')
    .join('');
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
