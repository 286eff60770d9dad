/**
 * Workflow-start authentication (docs/contributing/architecture.md, pipeline step 6): after input validation and before `run`,
 * every OAuth-enabled HTTP MCP server of the invoked workflow's own workflow.yaml is authenticated, one after
 * another: fresh stored tokens are reused, near-expiry ones refreshed, missing ones signed in. Then every
 * credential is checked again, because a slow sign-in of a later server can bring an earlier token under the
 * margin. Nothing here discovers tools, starts stdio servers or initializes agents. The context's abort signal
 * cancels a pending sign-in, so a parent's cleanup cancels its child's.
 */

import type {ExecutionContext} from '../../context/execution-context.ts';
import {AuthenticationError} from '../../errors/index.ts';
import {resolveStratosHome} from '../../internal/stratos-home.ts';
import {CredentialStore} from '../credentials/index.ts';
import {type AuthenticatedMcpServer, assertLifetime, authenticateMcpServer} from './authenticate.ts';
import {oauthServersOf} from './oauth-servers.ts';

export interface WorkflowStartAuthenticationOptions {
  env?: NodeJS.ProcessEnv;
  onNotice?: (message: string) => void;
}

/**
 * @throws AuthenticationError (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`) or StratosError `STRATOS_CONFIG_*`:
 *   the workflow body must not run.
 */
export async function authenticateWorkflowStart(
  context: ExecutionContext,
  options: WorkflowStartAuthenticationOptions = {},
): Promise<AuthenticatedMcpServer[]> {
  const servers = oauthServersOf(context.workflow.manifest);
  if (servers.length === 0) return [];
  const env = options.env ?? process.env;
  const store = new CredentialStore({home: resolveStratosHome(env)});
  const signal = context.abortController.signal;
  const authenticated: AuthenticatedMcpServer[] = [];
  for (const {name, config} of servers) {
    const result = await context.telemetry.operation(
      {
        kind: 'mcp.auth',
        name: `authenticate ${name}`,
        attributes: {'mcp.server': name, 'mcp.transport': 'http'},
      },
      async (scope) => {
        const done = await authenticateMcpServer({
          server: name,
          workflow: context.workflow.name,
          serverUrl: config.url,
          config: config.auth,
          directory: context.workflow.directory,
          store,
          env,
          signal,
          onNotice: options.onNotice ?? context.notify,
          registerSecret: (value) => context.telemetry.registerSecret(value),
        });
        scope.setAttributes({'mcp.auth.source': done.source});
        return done;
      },
    );
    authenticated.push(result);
  }
  // The recheck after the last server: the stored record is the truth (another process may have refreshed it).
  for (const result of authenticated) {
    const current = await store.find(result.identity);
    if (current?.accessToken === undefined) {
      throw new AuthenticationError(
        'STRATOS_AUTH_NOT_SIGNED_IN',
        `The credentials of MCP server '${result.server}' were removed while workflow '${context.workflow.name}' was starting (stratos mcp logout?). Sign in again with 'stratos mcp login --name ${result.server}'.`,
        {server: result.server, serverUrl: result.identity.serverUrl},
      );
    }
    assertLifetime(current, result.server);
  }
  return authenticated;
}
