/**
 * `stratos mcp login` and `stratos mcp logout` as functions. The server is found by its `mcp.servers` name in the
 * discovered workflows; when workflows declare that name differently, `workflow` picks one. Results name the
 * credential identity and expiry, never a token or secret.
 */
import type {WorkflowHandle} from '../discovery/index.ts';
import {AuthenticationError, StratosError} from '../errors/index.ts';
import type {HttpMcpServerConfig, OAuthConfig} from '../manifest/index.ts';
import {authenticateMcpServer} from '../mcp/auth/authenticate.ts';
import {clearDiscoveryCache} from '../mcp/auth/discovery.ts';
import {CredentialStore} from '../mcp/credentials/index.ts';
import {discover, findWorkflow, type HostOptions, resolveHost} from './host.ts';

export interface McpAuthOptions extends HostOptions {
  /** The workflow (name or folder) whose declaration of the server to use. */
  workflow?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Progress for the person signing in (the browser URL); the CLI prints it on stderr. */
  onNotice?: ((message: string) => void) | undefined;
}

export interface McpLoginResult {
  server: string;
  workflow: string;
  serverUrl: string;
  authorizationServer: string;
  clientId: string;
  /** `client_credentials`: a machine client's token request, no browser (docs/oauth.md). */
  grant: 'authorization_code' | 'client_credentials';
  /** ISO time the access token expires, when the authorization server said. */
  expiresAt: string | undefined;
  scope: string | undefined;
}

export interface McpLogoutResult {
  server: string;
  workflow: string;
  serverUrl: string;
  /** The identities whose local records were removed (no secrets). */
  removed: {serverUrl: string; authorizationServer: string; clientId: string}[];
}

/**
 * Signs in to an OAuth MCP server through the browser and stores the credentials; with `grant:
 * client_credentials`, fetches and stores a new token without any browser.
 *
 * @throws StratosError `STRATOS_MCP_SERVER_UNKNOWN`, `STRATOS_WORKFLOW_*`; AuthenticationError (`STRATOS_AUTH_*`,
 *   `STRATOS_CREDENTIALS_*`).
 */
export async function loginMcpServer(server: string, options: McpAuthOptions = {}): Promise<McpLoginResult> {
  const host = resolveHost(options);
  const target = await findOAuthServer(server, options);
  // An explicit login is a fresh look at the server: no discovery remembered from earlier in this process.
  clearDiscoveryCache(target.config.url);
  const result = await authenticateMcpServer({
    server,
    workflow: target.workflow.name,
    serverUrl: target.config.url,
    config: target.config.auth,
    directory: target.workflow.directory,
    store: new CredentialStore({home: host.home}),
    env: host.env,
    signal: options.signal,
    mode: 'login',
    onNotice: options.onNotice,
  }).catch((error: unknown) => {
    // Cancelled by SIGINT: the command ends with the cancellation, not the failure it caused on the way.
    throw options.signal?.aborted === true ? options.signal.reason : error;
  });
  return {
    server,
    workflow: target.workflow.name,
    ...result.identity,
    grant: target.config.auth.grant ?? 'authorization_code',
    expiresAt: result.expiresAt === undefined ? undefined : new Date(result.expiresAt * 1000).toISOString(),
    scope: result.scope,
  };
}

/**
 * Removes the local credentials (tokens, registered client, authorization-server binding) of an MCP server URL.
 * It does not revoke anything at the authorization server.
 */
export async function logoutMcpServer(
  server: string,
  options: McpAuthOptions = {},
): Promise<McpLogoutResult> {
  const host = resolveHost(options);
  const target = await findOAuthServer(server, options);
  const url = target.config.url;
  const clientId = target.config.auth.clientId;
  const removed = await new CredentialStore({home: host.home}).remove(
    (record) => record.serverUrl === url && (clientId === undefined || record.clientId === clientId),
  );
  clearDiscoveryCache(url);
  return {server, workflow: target.workflow.name, serverUrl: url, removed};
}

interface OAuthServerTarget {
  workflow: WorkflowHandle;
  config: HttpMcpServerConfig & {auth: OAuthConfig};
}

async function findOAuthServer(server: string, options: McpAuthOptions): Promise<OAuthServerTarget> {
  const host = resolveHost(options);
  const candidates =
    options.workflow === undefined
      ? (await discover(host)).workflows
      : [await findWorkflow(host, options.workflow)];
  const declaring = candidates.filter((handle) => handle.manifest?.mcp?.servers[server] !== undefined);
  if (declaring.length === 0) {
    throw new StratosError(
      'STRATOS_MCP_SERVER_UNKNOWN',
      options.workflow === undefined
        ? `No discovered workflow declares an MCP server named '${server}' in mcp.servers. Run 'stratos mcp list' to see the declared servers.`
        : `Workflow '${candidates[0]?.name ?? options.workflow}' does not declare an MCP server named '${server}' in mcp.servers.`,
      {details: {server}},
    );
  }
  const distinct = new Map<string, WorkflowHandle>();
  for (const handle of declaring) {
    distinct.set(
      JSON.stringify(handle.manifest!.mcp!.servers[server]),
      distinct.get(JSON.stringify(handle.manifest!.mcp!.servers[server])) ?? handle,
    );
  }
  if (distinct.size > 1) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `The workflows ${declaring.map((handle) => `'${handle.name}'`).join(', ')} declare the MCP server '${server}' differently. Pass --workflow <name> to choose one.`,
      {details: {server, workflows: declaring.map((handle) => handle.name)}},
    );
  }
  const workflow = declaring[0]!;
  const config = workflow.manifest!.mcp!.servers[server]!;
  if (config.type !== 'http' || config.auth?.type !== 'oauth') {
    throw new AuthenticationError(
      'STRATOS_AUTH_CONFIG_INVALID',
      `The MCP server '${server}' of workflow '${workflow.name}' does not use auth: {type: oauth}, so there is nothing to sign in to or out of. Its credentials come from its ${config.type === 'http' ? 'headers' : 'environment'} settings.`,
      {server, details: {workflow: workflow.name}},
    );
  }
  return {workflow, config: config as OAuthServerTarget['config']};
}
