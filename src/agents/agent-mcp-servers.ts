/**
 * The MCP servers an agent passes to its harness: its allowedMcps selection of mcp.servers, with {env:}/{file:}
 * references resolved and auth headers added. Called before every agent request, so credentials are rechecked
 * and refreshed between requests. The harness owns the connections; only a Codex agent with tool hooks has its
 * MCP calls pass through Stratos (the hook bridge in harness-kit/mcp-hook-bridge.ts), because Codex has no hook API.
 */
import {resolveReferenceMap} from '../config/references.ts';
import type {McpServerConfig} from '../manifest/index.ts';
import type {AgentMcpServer} from './harness.ts';

export interface ResolveAgentMcpOptions {
  workflow: string;
  /** The workflow directory: relative {file:} references and stdio commands resolve here. */
  directory: string;
  servers: Readonly<Record<string, McpServerConfig>>;
  selected: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * The between-request credential point: resolves the selected servers' headers and environment now, asking each
 * OAuth server's auth provider for fresh headers (which rechecks expiry and refreshes near-expiry tokens).
 * @throws StratosError STRATOS_CONFIG_* for unresolved references; AuthenticationError (STRATOS_AUTH_*,
 *   STRATOS_CREDENTIALS_*) for OAuth failures.
 */
export async function refreshAgentMcpServers(options: ResolveAgentMcpOptions): Promise<AgentMcpServer[]> {
  const resolved: AgentMcpServer[] = [];
  for (const name of options.selected) {
    const config = options.servers[name];
    if (config === undefined) continue;
    const base = {directory: options.directory, ...(options.env === undefined ? {} : {env: options.env})};
    if (config.type === 'stdio') {
      resolved.push({
        name,
        type: 'stdio',
        command: config.command,
        args: [...(config.args ?? [])],
        env: await resolveReferenceMap(config.env, {
          ...base,
          field: (key) => `environment variable '${key}' of MCP server '${name}'`,
        }),
        cwd: options.directory,
      });
      continue;
    }
    const headers = await resolveReferenceMap(config.headers, {
      ...base,
      field: (key) => `header '${key}' of MCP server '${name}'`,
    });
    // The auth layer (credential store, loopback server) loads only for agents that select an HTTP server.
    const {resolveMcpAuthProvider} = await import('../mcp/auth/auth-provider.ts');
    const provider = resolveMcpAuthProvider(config, {server: name, workflow: options.workflow});
    if (provider !== undefined) Object.assign(headers, await provider.headers());
    resolved.push({name, type: 'http', url: config.url, headers});
  }
  return resolved;
}
