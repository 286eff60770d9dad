/**
 * One browser sign-in: loopback listener, the SDK's authorization request (registering the client first when
 * needed), the browser, the callback and the SDK's code exchange. It holds no lock while the user signs in. Every
 * ending (success, an error callback, a wrong state, a failed browser launch, cancellation, the time limit)
 * closes the listener.
 */
import {randomBytes} from 'node:crypto';
import type {FetchLike, StoredOAuthClientInformation} from '@modelcontextprotocol/client';
import {AuthenticationError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import type {CredentialRecord, CredentialStore} from '../credentials/index.ts';
import type {AuthorizationDiscovery} from './discovery.ts';
import {type CallbackResult, startLoopbackCallback} from './loopback-callback.ts';
import {StratosOAuthClientProvider} from './oauth-client-provider.ts';
import type {OAuthSettings} from './oauth-settings.ts';
import {type BrowserLaunch, openBrowser} from './open-browser.ts';

/** The default limit of a browser sign-in (docs/contributing/design-decisions.md: five minutes). */
export const signInTimeoutMs = 5 * 60_000;

export interface SignInOptions {
  server: string;
  serverUrl: string;
  settings: OAuthSettings;
  discovery: AuthorizationDiscovery;
  store: CredentialStore;
  /** The supplied or previously registered client, stamped with the discovered issuer; undefined registers one. */
  client: StoredOAuthClientInformation | undefined;
  fetchFn: FetchLike;
  signal?: AbortSignal | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** Default {@link signInTimeoutMs}, or STRATOS_OAUTH_SIGN_IN_TIMEOUT_MS. */
  timeoutMs?: number | undefined;
  /** Tells the person what is happening (the CLI prints it on stderr). */
  onNotice?: ((message: string) => void) | undefined;
}

/**
 * Signs in and returns the saved record.
 *
 * @throws AuthenticationError `STRATOS_AUTH_BROWSER_FAILED`, `STRATOS_AUTH_TIMEOUT`, `STRATOS_AUTH_CANCELLED`,
 *   `STRATOS_AUTH_CALLBACK_ERROR`, `STRATOS_AUTH_STATE_MISMATCH`, `STRATOS_AUTH_CALLBACK_PORT_UNAVAILABLE`,
 *   `STRATOS_AUTH_REGISTRATION_FAILED`, `STRATOS_AUTH_TOKEN_EXCHANGE_FAILED`.
 */
export async function signIn(options: SignInOptions): Promise<CredentialRecord> {
  const {server, serverUrl, settings} = options;
  const timeoutMs = options.timeoutMs ?? timeoutFromEnv(options.env) ?? signInTimeoutMs;
  options.signal?.throwIfAborted();
  const state = randomBytes(32).toString('base64url');
  const callback = await startLoopbackCallback({
    port: settings.callbackPort,
    hosts: settings.callbackHosts,
    path: settings.callbackPath,
    state,
    server,
  });
  const redirectUrl = settings.redirectUri ?? callback.redirectUrl;
  let launch: BrowserLaunch | undefined;
  let authorizationUrl: string | undefined;
  const metadata = options.discovery.state.authorizationServerMetadata;
  const supported = metadata?.token_endpoint_auth_methods_supported;
  const provider = new StratosOAuthClientProvider({
    store: options.store,
    serverUrl,
    redirectUrl,
    scope: settings.scope ?? options.discovery.challengeScope,
    clientMetadataUrl: settings.clientMetadataUrl,
    // A native app is a public client unless the server accepts only confidential ones.
    registrationAuthMethod: supported === undefined || supported.includes('none') ? 'none' : supported[0]!,
    discovery: options.discovery.state,
    client: options.client,
    state,
    onAuthorizationUrl: async (url) => {
      authorizationUrl = url.href;
      options.onNotice?.(`Signing in to MCP server '${server}': opening your browser at ${url.href}`);
      launch = await openBrowser(url.href, {env: options.env ?? process.env});
    },
  });
  const sdk = await import('@modelcontextprotocol/client');
  const scope = settings.scope ?? options.discovery.challengeScope;
  const authOptions = {serverUrl, fetchFn: options.fetchFn, ...(scope === undefined ? {} : {scope})};
  let timer: NodeJS.Timeout | undefined;
  let phase: 'start' | 'browser' | 'exchange' = 'start';
  try {
    const started = await sdk.auth(provider, authOptions);
    if (started === 'AUTHORIZED') return requireSaved(provider, server);
    phase = 'browser';
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AuthenticationError(
              'STRATOS_AUTH_TIMEOUT',
              `The sign-in to MCP server '${server}' did not complete within ${Math.round(timeoutMs / 1000)} seconds. Run 'stratos mcp login --name ${server}' to try again.`,
              {server, serverUrl},
            ),
          ),
        timeoutMs,
      );
    });
    const waits: Promise<CallbackResult>[] = [callback.result, timedOut];
    if (launch !== undefined) waits.push(launch.failed.then((error) => Promise.reject(browserFailed(error))));
    if (options.signal !== undefined) waits.push(cancelled(options.signal, server));
    // The losers of the race may still settle later (a signal aborted after success): never unobserved.
    for (const wait of waits) wait.catch(() => {});
    const {code, iss} = await Promise.race(waits);
    phase = 'exchange';
    await sdk.auth(provider, {...authOptions, authorizationCode: code, ...(iss === undefined ? {} : {iss})});
    return requireSaved(provider, server);
  } catch (error) {
    if (error instanceof AuthenticationError) throw error;
    if (options.signal?.aborted === true) throw cancelledError(server, error);
    const message = describeError(error);
    if (phase === 'exchange') {
      throw new AuthenticationError(
        'STRATOS_AUTH_TOKEN_EXCHANGE_FAILED',
        `The sign-in to MCP server '${server}' failed when the authorization code was exchanged for tokens: ${message}`,
        {server, serverUrl, cause: error},
      );
    }
    throw new AuthenticationError(
      'STRATOS_AUTH_REGISTRATION_FAILED',
      provider.clientInformation() === undefined
        ? `Stratos could not register as an OAuth client of MCP server '${server}': ${message}. Configure a pre-registered clientId (and clientSecret) in its auth settings if the server does not allow registration.`
        : `The sign-in to MCP server '${server}' could not start: ${message}`,
      {server, serverUrl, cause: error},
    );
  } finally {
    clearTimeout(timer);
    launch?.dispose();
    await callback.close();
  }

  function browserFailed(reason: Error): AuthenticationError {
    return new AuthenticationError(
      'STRATOS_AUTH_BROWSER_FAILED',
      `Stratos could not open a browser to sign in to MCP server '${server}': ${reason.message}. Set the BROWSER environment variable to a browser command, or open this URL by hand during a new sign-in: ${authorizationUrl ?? '(unknown)'}`,
      {server, serverUrl, details: {authorizationUrl}},
    );
  }
}

function requireSaved(provider: StratosOAuthClientProvider, server: string): CredentialRecord {
  const record = provider.savedRecord;
  if (record?.accessToken === undefined) {
    throw new AuthenticationError(
      'STRATOS_AUTH_TOKEN_EXCHANGE_FAILED',
      `The sign-in to MCP server '${server}' ended without an access token.`,
      {server},
    );
  }
  return record;
}

function cancelled(signal: AbortSignal, server: string): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(cancelledError(server, signal.reason));
    signal.addEventListener('abort', () => reject(cancelledError(server, signal.reason)), {once: true});
  });
}

function cancelledError(server: string, cause: unknown): AuthenticationError {
  return new AuthenticationError(
    'STRATOS_AUTH_CANCELLED',
    `The sign-in to MCP server '${server}' was cancelled because its invocation or command ended.`,
    {server, cause},
  );
}

function timeoutFromEnv(env: NodeJS.ProcessEnv | undefined): number | undefined {
  const text = (env ?? process.env).STRATOS_OAUTH_SIGN_IN_TIMEOUT_MS;
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
