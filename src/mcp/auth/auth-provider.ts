/**
 * The authentication seam of MCP connections: a direct connection (and an agent, before each request) asks its
 * server's provider for request headers just before it connects. Servers without `auth` need no provider (their
 * configured headers are sent as they are). For `auth: {type: oauth}` the provider runs Stratos's credential flow:
 * a fresh stored access token is reused, a near-expiry one refreshed, missing credentials start the browser
 * sign-in. Only the access token leaves the credential store.
 */

import {findExecutionContext} from '../../context/execution-context.ts';
import type {HttpMcpServerConfig} from '../../manifest/index.ts';
import {authenticateMcpServer} from './authenticate.ts';

/** Supplies the authentication headers of one HTTP MCP server, such as `Authorization: Bearer <token>`. */
export interface McpAuthProvider {
  /** Headers to add to every request of the connection; values are secrets and are never logged. */
  headers(): Promise<Record<string, string>>;
}

export interface McpAuthContext {
  /** The `mcp.servers` key. */
  server: string;
  /** The workflow whose manifest declares the server, for messages. */
  workflow: string;
  /**
   * The workflow directory, where `{file:}` references of `clientSecret` resolve. Defaults to the running
   * invocation's workflow directory.
   */
  directory?: string;
  env?: NodeJS.ProcessEnv;
  /** Notices for the person at the terminal outside a run (a build's discovery); a run uses its context's. */
  onNotice?: (message: string) => void;
}

/**
 * The provider for an HTTP server's `auth` setting, or undefined when it has none. Inside a running workflow, a
 * pending sign-in is cancelled with the invocation.
 *
 * `headers()` throws AuthenticationError (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`) or StratosError
 * `STRATOS_CONFIG_*` for an unresolvable clientSecret reference.
 */
export function resolveMcpAuthProvider(
  config: HttpMcpServerConfig,
  context: McpAuthContext,
): McpAuthProvider | undefined {
  const auth = config.auth;
  if (auth === undefined) return undefined;
  return {
    headers: async () => {
      const execution = findExecutionContext();
      const directory = context.directory ?? execution?.workflow.directory ?? process.cwd();
      const result = await authenticateMcpServer({
        server: context.server,
        workflow: context.workflow,
        serverUrl: config.url,
        config: auth,
        directory,
        ...(context.env === undefined ? {} : {env: context.env}),
        signal: execution?.abortController.signal,
        onNotice: execution?.notify ?? context.onNotice ?? (() => {}),
        registerSecret:
          execution === undefined ? undefined : (value) => execution.telemetry.registerSecret(value),
      });
      return {Authorization: `Bearer ${result.accessToken}`};
    },
  };
}
