/**
 * Stratos's session settings as Codex's SDK options: the `--config` entries (tools removed, developer
 * instructions, MCP servers, the PreToolUse hook, the provider's own configuration from ./provider-setup.ts), the
 * environment and the thread options. Everything Stratos selects is passed as `--config`; user configuration is
 * ignored (./process.ts).
 */
import type {CodexOptions, ThreadOptions} from '@openai/codex-sdk';
import {resolveMcpRequestTimeoutMs} from '../../../mcp/client/request-timeout.ts';
import type {AgentMcpServer, HarnessSessionOptions} from '../../harness.ts';
import type {McpHookBridge} from '../../harness-kit/mcp-hook-bridge.ts';
import {resolveCodexProvider} from './provider-setup.ts';

type CodexConfigObject = NonNullable<CodexOptions['config']>;

/**
 * The environment variable that carries the bridge's bearer token to Codex (not its command line, which other
 * users can read). Its name contains TOKEN, which Codex's default shell environment policy keeps out of the
 * commands the model runs.
 */
const bridgeTokenVariable = 'STRATOS_MCP_BRIDGE_TOKEN';

/** What a session has started for Codex before its options are written. */
export interface CodexSessionParts {
  launcher: string;
  bridge: McpHookBridge | undefined;
  /** The `hooks` entry of the configuration (./tool-hooks.ts), when the agent has a before-tool hook. */
  toolHookConfig: CodexConfigObject | undefined;
  /** CODEX_HOME of its own when the provider must not see the saved login (Azure, Ollama). */
  isolatedHome: string | undefined;
}

/** The options of the Codex instance that runs a thread with `mcpServers` (the latest, refreshed, selection). */
export function toCodexOptions(
  o: HarnessSessionOptions,
  parts: CodexSessionParts,
  mcpServers: readonly AgentMcpServer[],
): CodexOptions {
  const {bridge} = parts;
  const config: CodexConfigObject = {
    analytics: {enabled: false},
    features: {plugins: false, ...(o.tools.removed.includes('shell') ? {shell_tool: false} : {})},
    ...(o.tools.removed.includes('web_search') ? {web_search: 'disabled'} : {}),
    ...(o.tools.removed.includes('view_image') ? {tools: {view_image: false}} : {}),
    ...(o.systemPrompt === undefined ? {} : {developer_instructions: o.systemPrompt}),
    mcp_servers: bridge === undefined ? toNativeServers(mcpServers) : toBridgedServers(bridge),
    ...parts.toolHookConfig,
  };
  // The provider's own configuration and credentials (./provider-setup.ts); Azure gets a CODEX_HOME of its own,
  // so a saved ChatGPT login can never stand in for a failing Azure setup.
  const provider = resolveCodexProvider(o.provider, o.env);
  Object.assign(config, provider.config);
  const env =
    parts.isolatedHome === undefined ? provider.env : {...provider.env, CODEX_HOME: parts.isolatedHome};
  return {
    codexPathOverride: parts.launcher,
    env: bridge === undefined ? env : {...env, [bridgeTokenVariable]: bridge.token},
    config,
    ...(provider.apiKey === undefined ? {} : {apiKey: provider.apiKey}),
  };
}

/** The options of each thread (started, or resumed by id). */
export function toThreadOptions(o: HarnessSessionOptions): ThreadOptions {
  return {
    workingDirectory: o.workingDirectory,
    skipGitRepoCheck: true,
    approvalPolicy: 'never',
    sandboxMode: 'workspace-write',
    ...(o.model === undefined ? {} : {model: o.model}),
    ...(o.effort === undefined
      ? {}
      : {modelReasoningEffort: o.effort as NonNullable<ThreadOptions['modelReasoningEffort']>}),
  };
}

/**
 * What every selected server gets. Codex treats MCP servers as optional by default: a server that has not
 * finished starting within a short grace period (about a second) is left out of the turn, and the model is then
 * offered no tools from it, which happens on any loaded machine. The selection is part of the agent's contract,
 * so each server is `required`: Codex waits for it (up to Stratos's MCP request limit) and fails the turn with the
 * server's name when it cannot start, instead of silently running without it.
 */
function serverPolicy(): CodexConfigObject {
  return {
    default_tools_approval_mode: 'approve',
    required: true,
    startup_timeout_ms: resolveMcpRequestTimeoutMs(),
  };
}

function toNativeServers(servers: readonly AgentMcpServer[]): CodexConfigObject {
  const native: CodexConfigObject = {};
  for (const server of servers) {
    native[server.name] =
      server.type === 'http'
        ? {url: server.url, http_headers: server.headers, ...serverPolicy()}
        : {
            command: server.command,
            args: server.args,
            env: server.env,
            ...(server.cwd === undefined ? {} : {cwd: server.cwd}),
            ...serverPolicy(),
          };
  }
  return native;
}

/** Each selected server as its bridge endpoint; the bearer token reaches Codex through its environment. */
function toBridgedServers(bridge: McpHookBridge): CodexConfigObject {
  const native: CodexConfigObject = {};
  for (const endpoint of bridge.endpoints) {
    native[endpoint.name] = {url: endpoint.url, bearer_token_env_var: bridgeTokenVariable, ...serverPolicy()};
  }
  return native;
}
