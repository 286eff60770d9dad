/**
 * The OAuth test pair: a real authorization server (oidc-provider) and a Stratum-like MCP resource server.
 *
 * ```ts
 * const oauth = await startOAuthServers();
 * // workflow.yaml: mcp.servers.stratum = {type: http, url: oauth.mcpUrl, auth: {type: oauth}}
 * // BROWSER = browserCommand() signs in through login and consent in headless Chromium
 * assert.equal(oauth.as.tokenRequests.refresh_token, 1);
 * await oauth.close();
 * ```
 */
import {fileURLToPath} from 'node:url';
import {startAuthorizationServer, type TestAuthorizationServer} from './authorization-server.ts';
import {startResourceServer, type TestResourceServer} from './resource-server.ts';

export {mcpScopes, testPassword} from './authorization-server.ts';
export type {TestAuthorizationServer, TestResourceServer};

export interface OAuthTestServers {
  as: TestAuthorizationServer;
  rs: TestResourceServer;
  mcpUrl: string;
  issuer: string;
  /** Makes the resource server name (and trust tokens of) another authorization server; undefined restores. */
  useAuthorizationServer(other: TestAuthorizationServer | undefined): void;
  close(): Promise<void>;
}

export interface StartOAuthServersOptions {
  clients?: Record<string, unknown>[];
  /** Enables the client_credentials grant (SEP-1046) for the pre-registered clients. */
  clientCredentials?: boolean;
  clientAuthMethods?: string[];
}

export async function startOAuthServers(options: StartOAuthServersOptions = {}): Promise<OAuthTestServers> {
  let rs: TestResourceServer | undefined;
  const as = await startAuthorizationServer({
    resource: () => rs!.url,
    ...(options.clients ? {clients: options.clients} : {}),
    ...(options.clientCredentials === undefined ? {} : {clientCredentials: options.clientCredentials}),
    ...(options.clientAuthMethods === undefined ? {} : {clientAuthMethods: options.clientAuthMethods}),
  });
  let current = as;
  rs = await startResourceServer({issuer: () => current.issuer, provider: () => current.provider});
  return {
    as,
    rs,
    mcpUrl: rs.url,
    issuer: as.issuer,
    useAuthorizationServer: (other) => {
      current = other ?? as;
    },
    close: async () => {
      await Promise.allSettled([rs.close(), as.close()]);
    },
  };
}

/** Absolute path of the Playwright-driven BROWSER script (see browser.ts). */
export const browserScript = fileURLToPath(new URL('./browser.ts', import.meta.url));

/** A BROWSER script that answers the loopback callback itself: `--mode=wrong-state` or `--mode=error`. */
export const fakeCallbackScript = fileURLToPath(new URL('./fake-callback.ts', import.meta.url));

export function fakeCallbackCommand(mode: 'wrong-state' | 'error'): string {
  return [process.execPath, fakeCallbackScript, `--mode=${mode}`].map((arg) => `"${arg}"`).join(' ');
}

/**
 * A BROWSER value that signs in as `user` in headless Chromium. `action` `approve` (default) or `deny` the
 * consent; `ignore` opens the page and exits without signing in (the sign-in then times out).
 */
export function browserCommand(
  options: {user?: string; action?: 'approve' | 'deny' | 'ignore'; log?: string} = {},
): string {
  const args = [
    process.execPath,
    browserScript,
    `--user=${options.user ?? 'alice'}`,
    `--action=${options.action ?? 'approve'}`,
  ];
  if (options.log !== undefined) args.push(`--log=${options.log}`);
  return args.map((arg) => `"${arg}"`).join(' ');
}
