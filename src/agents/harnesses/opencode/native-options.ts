/**
 * Stratos's session settings as OpenCode's: the whole configuration is passed as OPENCODE_CONFIG_CONTENT, with
 * project configuration, Claude Code compatibility, default plugins, LSP downloads, the model catalog fetch,
 * auto-update and sharing disabled; the small (title) model is the selected model, so no other model is called.
 * `OPENAI_BASE_URL` makes `openai/<model>` an OpenAI-compatible (chat completions) provider at that URL; a local
 * Ollama model is ./ollama-provider.ts. Each prompt's own options (system prompt, effort, output schema) are
 * `toPromptBody`.
 */
import {StratosError} from '../../../errors/stratos-error.ts';
import {resolveMcpRequestTimeoutMs} from '../../../mcp/client/request-timeout.ts';
import type {AgentMcpServer, HarnessSessionOptions} from '../../harness.ts';
import type {McpHookBridge} from '../../harness-kit/mcp-hook-bridge.ts';
import {resolveOpenCodeOllama} from './ollama-provider.ts';

/** Tools that wait for a person: always removed. */
const interactiveTools = ['question'];

/**
 * OpenCode's built-in `openai` provider speaks the Responses API; with OPENAI_BASE_URL, `openai/<model>` becomes a
 * chat-completions provider of its own id at that URL instead.
 */
const baseUrlProvider = 'openai-base-url';

/** A model as OpenCode names it. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

/** The model of a session and the environment of its `opencode serve` process (configuration included). */
export function toServerSetup(
  options: HarnessSessionOptions,
  bridge: McpHookBridge | undefined,
): {model: ModelRef | undefined; env: Record<string, string>} {
  // provider: ollama (./ollama-provider.ts): the local model as it is named, on the user's server only.
  const local =
    options.provider === 'ollama' ? resolveOpenCodeOllama(options.model!, options.env) : undefined;
  const model = local?.model ?? toNativeModel(splitModel(options.model), options.env);
  const env = {
    ...(local?.env ?? options.env),
    OPENCODE_CONFIG_CONTENT: JSON.stringify({...toNativeConfig(options, model, bridge), ...local?.config}),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_PROJECT_CONFIG: '1',
  };
  return {model, env};
}

/** The body of one prompt. */
export function toPromptBody(o: HarnessSessionOptions, model: ModelRef | undefined, prompt: string) {
  return {
    parts: [{type: 'text' as const, text: prompt}],
    ...(model === undefined ? {} : {model}),
    ...(o.systemPrompt === undefined ? {} : {system: o.systemPrompt}),
    ...(o.effort === undefined ? {} : {variant: o.effort}),
    ...(o.outputJsonSchema === undefined ? {} : {format: {type: 'json_schema', schema: o.outputJsonSchema}}),
  };
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

function toNativeModel(model: ModelRef | undefined, env: Record<string, string>): ModelRef | undefined {
  const baseUrl = env.OPENAI_BASE_URL;
  if (model === undefined || model.providerID !== 'openai' || baseUrl === undefined || baseUrl === '')
    return model;
  return {providerID: baseUrlProvider, modelID: model.modelID};
}

function toNativeConfig(
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
    mcp: bridge === undefined ? toNativeServers(options.mcpServers) : toBridgedServers(bridge),
  };
}

function toNativeServers(servers: readonly AgentMcpServer[]): Record<string, unknown> {
  const native: Record<string, unknown> = {};
  for (const server of servers) {
    native[server.name] =
      server.type === 'http'
        ? toNativeRemote(server)
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
 * A selected HTTP server with the headers Stratos resolved (also for `POST /mcp` between prompts). OpenCode's own
 * OAuth detection is off: Stratos signs in and refreshes (credentials never go through OpenCode's auth storage).
 */
export function toNativeRemote(server: Extract<AgentMcpServer, {type: 'http'}>) {
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

function toBridgedServers(bridge: McpHookBridge): Record<string, unknown> {
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
