/**
 * The between-request refresh the agents call before every agent request: for the selected servers of the
 * running workflow, recheck expiry, refresh near-expiry tokens (coordinated across processes), sign in when
 * credentials are missing, and return the headers to put into the native MCP configuration. Rotated credentials
 * are saved before this returns. It does not keep a token valid during an arbitrarily long request.
 */

import type {ExecutionContext} from '../../context/execution-context.ts';
import {StratosError} from '../../errors/index.ts';
import {resolveStratosHome} from '../../internal/stratos-home.ts';
import {CredentialStore} from '../credentials/index.ts';
import {authenticateMcpServer} from './authenticate.ts';

export interface RefreshedMcpCredentials {
  /** `Authorization: Bearer <access token>`; a secret value, never to be logged. */
  headers: Record<string, string>;
  /** Unix seconds, when known. */
  expiresAt: number | undefined;
}

/**
 * Refreshes the OAuth credentials of `serverNames` (keys of the running workflow's `mcp.servers`). Servers
 * without `auth: {type: oauth}` are skipped; the result has an entry for each OAuth server.
 *
 * @throws StratosError `STRATOS_MCP_SERVER_UNKNOWN` for a name the manifest does not declare;
 *   AuthenticationError (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`).
 * @example
 * const fresh = await refreshMcpCredentials(context, ['company']);
 * nativeConfig.company.headers = {...nativeConfig.company.headers, ...fresh.company?.headers};
 */
export async function refreshMcpCredentials(
  context: ExecutionContext,
  serverNames: readonly string[],
): Promise<Record<string, RefreshedMcpCredentials>> {
  const servers = context.workflow.manifest.mcp?.servers ?? {};
  const store = new CredentialStore({home: resolveStratosHome()});
  const refreshed: Record<string, RefreshedMcpCredentials> = {};
  for (const name of serverNames) {
    const config = servers[name];
    if (config === undefined) {
      throw new StratosError(
        'STRATOS_MCP_SERVER_UNKNOWN',
        `The MCP server '${name}' is not configured in mcp.servers of workflow '${context.workflow.name}' (${context.workflow.directory}/workflow.yaml).`,
        {details: {server: name, workflow: context.workflow.name}},
      );
    }
    if (config.type !== 'http' || config.auth?.type !== 'oauth') continue;
    const result = await authenticateMcpServer({
      server: name,
      workflow: context.workflow.name,
      serverUrl: config.url,
      config: config.auth,
      directory: context.workflow.directory,
      store,
      signal: context.abortController.signal,
      onNotice: context.notify,
      registerSecret: (value) => context.telemetry.registerSecret(value),
    });
    refreshed[name] = {headers: {Authorization: `Bearer ${result.accessToken}`}, expiresAt: result.expiresAt};
  }
  return refreshed;
}
