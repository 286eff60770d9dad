/**
 * A configured MCP server turned into what a transport needs: references resolved, authentication headers added.
 * The result holds secret values; it is passed to the transport and never logged or stored.
 */
import {resolveReferenceMap} from '../../config/index.ts';
import type {McpServerConfig} from '../../manifest/index.ts';
import {resolveMcpAuthProvider} from '../auth/auth-provider.ts';

export type McpTransportSpec =
  | {kind: 'http'; url: string; headers: Record<string, string>}
  | {kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string};

export interface ResolveTransportOptions {
  /** The `mcp.servers` key. */
  server: string;
  workflow: string;
  /** The workflow directory: `{file:}` references resolve here and stdio servers start here. */
  directory: string;
  env?: NodeJS.ProcessEnv;
  /** Notices for the person at the terminal, such as a sign-in URL. */
  onNotice?: (message: string) => void;
}

/**
 * Resolves headers or environment values and asks the auth provider for its headers.
 *
 * @throws StratosError `STRATOS_CONFIG_*` for a reference that cannot be resolved; AuthenticationError
 *   (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`) from the OAuth provider.
 */
export async function resolveMcpTransport(
  config: McpServerConfig,
  options: ResolveTransportOptions,
): Promise<McpTransportSpec> {
  const base = {directory: options.directory, ...(options.env === undefined ? {} : {env: options.env})};
  if (config.type === 'http') {
    const provider = resolveMcpAuthProvider(config, {
      server: options.server,
      workflow: options.workflow,
      directory: options.directory,
      ...(options.env === undefined ? {} : {env: options.env}),
      ...(options.onNotice === undefined ? {} : {onNotice: options.onNotice}),
    });
    const headers = await resolveReferenceMap(config.headers, {
      ...base,
      field: (key) => `header '${key}' of MCP server '${options.server}' in workflow '${options.workflow}'`,
    });
    return {kind: 'http', url: config.url, headers: {...headers, ...(await provider?.headers())}};
  }
  const env = await resolveReferenceMap(config.env, {
    ...base,
    field: (key) =>
      `environment variable '${key}' of MCP server '${options.server}' in workflow '${options.workflow}'`,
  });
  // Stdio servers start in the workflow directory: their command and args (`tools/server.js`) are shared with
  // the workflow through Git, and build-time discovery must see the same server the run later talks to.
  return {kind: 'stdio', command: config.command, args: config.args ?? [], env, cwd: options.directory};
}

/**
 * The identity of a server's negotiated protocol verdict: what selects the server process or endpoint, without
 * any secret (headers and environment values are left out).
 */
export function transportIdentity(config: McpServerConfig, directory: string): string {
  return config.type === 'http'
    ? JSON.stringify(['http', config.url])
    : JSON.stringify(['stdio', config.command, config.args ?? [], directory]);
}
