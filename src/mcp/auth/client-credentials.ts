/**
 * The OAuth client-credentials grant of machine clients (SEP-1046): no browser, no refresh token. The discovery
 * (with its issuer check), the resource indicator and the scope selection are those of the browser sign-in; the
 * token request is the SDK's `fetchToken` with its `ClientCredentialsProvider` (`client_secret_basic`, or
 * `client_secret_post` when that is all the server advertises) or `PrivateKeyJwtProvider` (RFC 7523
 * `private_key_jwt`). Before anything is sent, the server must advertise the grant and the authentication method,
 * and the client id must not be bound to another authorization server. A token is stored only after it was
 * obtained: nothing is written by a failed attempt. Concurrent processes fetch once (the refresh lock) and share
 * the result.
 */
import type {FetchLike} from '@modelcontextprotocol/client';
import {AuthenticationError, registerCredentialSecret} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import type {CredentialRecord, CredentialStore} from '../credentials/index.ts';
import type {AuthorizationDiscovery} from './discovery.ts';
import {applyTokenResponse} from './oauth-client-provider.ts';
import type {OAuthSettings} from './oauth-settings.ts';
import {type ClientAssertionKey, readClientAssertionKey} from './private-key.ts';

export interface ClientCredentialsOptions {
  server: string;
  serverUrl: string;
  settings: OAuthSettings;
  discovery: AuthorizationDiscovery;
  store: CredentialStore;
  fetchFn: FetchLike;
  signal?: AbortSignal | undefined;
  /** `use`: reuse a stored token with enough lifetime. `login`: always fetch a new one. */
  mode: 'use' | 'login';
  /** True when a stored token with more than the margin left may be reused. */
  usable(record: CredentialRecord): boolean;
}

export interface ClientCredentialsResult {
  record: CredentialRecord;
  source: 'stored' | 'fetched' | 'fetched-elsewhere';
}

/**
 * Reuses the stored token of the client when it has lifetime left, otherwise fetches a new one.
 *
 * @throws AuthenticationError `STRATOS_AUTH_GRANT_UNSUPPORTED`, `STRATOS_AUTH_METHOD_UNSUPPORTED`,
 *   `STRATOS_AUTH_KEY_INVALID`, `STRATOS_AUTH_CLIENT_REJECTED`, `STRATOS_AUTH_TOKEN_REQUEST_FAILED`,
 *   `STRATOS_AUTH_SERVER_MISMATCH`, `STRATOS_CREDENTIALS_*`.
 */
export async function authenticateWithClientCredentials(
  options: ClientCredentialsOptions,
): Promise<ClientCredentialsResult> {
  const {server, settings, discovery, store} = options;
  const clientId = settings.clientId!;
  const identity = {serverUrl: discovery.serverUrl, authorizationServer: discovery.issuer, clientId};
  // The binding check comes first: no stored token is used and no credential is sent to another server.
  const stored = await checkBinding(store, identity, server);
  if (options.mode === 'use' && stored !== undefined && options.usable(stored)) {
    return {record: stored, source: 'stored'};
  }
  const plan = await planTokenRequest(options);
  return store.withRefreshLock(
    identity,
    async () => {
      const current = await store.find(identity);
      // Another process fetched while this one waited: use its token.
      if (current !== undefined && current.accessToken !== stored?.accessToken && options.usable(current)) {
        return {record: current, source: 'fetched-elsewhere'};
      }
      const tokens = await requestToken(options, plan);
      registerCredentialSecret(tokens.access_token);
      const fetched = applyTokenResponse({...identity, tokenEndpointAuthMethod: plan.method}, tokens);
      // No refresh token is kept: a new token is fetched with the client credential instead.
      delete fetched.refreshToken;
      await store.update((records) => {
        assertNoOtherBinding(records, identity, server);
        return {
          records: [
            ...records.filter(
              (record) =>
                !(
                  record.serverUrl === identity.serverUrl &&
                  record.authorizationServer === identity.authorizationServer &&
                  record.clientId === identity.clientId
                ),
            ),
            fetched,
          ],
          result: undefined,
        };
      });
      return {record: fetched, source: 'fetched'};
    },
    options.signal,
  );
}

interface TokenRequestPlan {
  method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  key: ClientAssertionKey | undefined;
  scope: string | undefined;
}

/** Checks what the authorization server advertises against the configuration, before anything is sent. */
async function planTokenRequest(options: ClientCredentialsOptions): Promise<TokenRequestPlan> {
  const {server, settings, discovery} = options;
  const metadata = discovery.state.authorizationServerMetadata;
  const issuer = discovery.issuer;
  const fail = (
    code: 'STRATOS_AUTH_GRANT_UNSUPPORTED' | 'STRATOS_AUTH_METHOD_UNSUPPORTED',
    message: string,
  ) =>
    new AuthenticationError(code, message, {
      server,
      serverUrl: discovery.serverUrl,
      details: {authorizationServer: issuer},
    });
  // RFC 8414: an absent grant_types_supported means authorization_code and implicit only.
  const grants = metadata?.grant_types_supported ?? [];
  if (!grants.includes('client_credentials')) {
    throw fail(
      'STRATOS_AUTH_GRANT_UNSUPPORTED',
      `The authorization server ${issuer} of MCP server '${options.server}' does not advertise the client_credentials grant (it offers ${grants.length === 0 ? 'no grant list' : grants.join(', ')}). Nothing was sent or stored. Ask its administrator to enable client credentials for client '${settings.clientId}', or remove 'grant: client_credentials' to sign in through the browser.`,
    );
  }
  const scope =
    settings.scope ??
    discovery.challengeScope ??
    discovery.state.resourceMetadata?.scopes_supported?.join(' ') ??
    undefined;
  // RFC 8414: an absent token_endpoint_auth_methods_supported means client_secret_basic.
  const methods = metadata?.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (settings.clientSecret !== undefined) {
    const method = methods.includes('client_secret_basic')
      ? 'client_secret_basic'
      : methods.includes('client_secret_post')
        ? 'client_secret_post'
        : undefined;
    if (method === undefined) {
      throw fail(
        'STRATOS_AUTH_METHOD_UNSUPPORTED',
        `The authorization server ${issuer} of MCP server '${server}' accepts no client secret (it advertises ${methods.join(', ')}). Nothing was sent or stored.${methods.includes('private_key_jwt') ? ' Configure privateKey (private_key_jwt) instead of clientSecret.' : ''}`,
      );
    }
    return {method, key: undefined, scope};
  }
  if (!methods.includes('private_key_jwt')) {
    throw fail(
      'STRATOS_AUTH_METHOD_UNSUPPORTED',
      `The authorization server ${issuer} of MCP server '${server}' does not accept private_key_jwt client authentication (it advertises ${methods.join(', ')}). Nothing was sent or stored.${methods.some((m) => m.startsWith('client_secret')) ? ' Configure clientSecret instead of privateKey.' : ''}`,
    );
  }
  const key = readClientAssertionKey(settings.privateKey!, {
    server,
    algorithm: settings.signingAlgorithm,
  });
  const algorithms = metadata?.token_endpoint_auth_signing_alg_values_supported;
  if (algorithms !== undefined && !algorithms.includes(key.algorithm)) {
    throw fail(
      'STRATOS_AUTH_METHOD_UNSUPPORTED',
      `The authorization server ${issuer} of MCP server '${server}' does not accept client assertions signed with ${key.algorithm} (it accepts ${algorithms.join(', ')}). Nothing was sent or stored. Use a key of a type it accepts${settings.signingAlgorithm === undefined ? '' : ', or change signingAlgorithm'}.`,
    );
  }
  return {method: 'private_key_jwt', key, scope};
}

async function requestToken(
  options: ClientCredentialsOptions,
  plan: TokenRequestPlan,
): Promise<Awaited<ReturnType<typeof import('@modelcontextprotocol/client').fetchToken>>> {
  const {server, settings, discovery} = options;
  const sdk = await import('@modelcontextprotocol/client');
  const common = {
    clientId: settings.clientId!,
    clientName: 'Stratos',
    expectedIssuer: discovery.issuer,
    ...(plan.scope === undefined ? {} : {scope: plan.scope}),
  };
  const provider =
    plan.key === undefined
      ? new sdk.ClientCredentialsProvider({...common, clientSecret: settings.clientSecret!})
      : new sdk.PrivateKeyJwtProvider({...common, privateKey: plan.key.jwk, algorithm: plan.key.algorithm});
  const metadata = discovery.state.authorizationServerMetadata;
  try {
    return await sdk.fetchToken(provider, discovery.state.authorizationServerUrl, {
      ...(metadata === undefined ? {} : {metadata}),
      ...(discovery.resource === undefined ? {} : {resource: discovery.resource}),
      ...(plan.scope === undefined ? {} : {scope: plan.scope}),
      fetchFn: options.fetchFn,
    });
  } catch (error) {
    const where = `MCP server '${server}' (authorization server ${discovery.issuer})`;
    const base = {server, serverUrl: discovery.serverUrl, cause: error};
    if (error instanceof sdk.OAuthError) {
      const said = `${error.code}${error.message === '' || error.message === error.code ? '' : `: ${error.message}`}`;
      if (error.code === sdk.OAuthErrorCode.InvalidClient) {
        throw new AuthenticationError(
          'STRATOS_AUTH_CLIENT_REJECTED',
          `The authorization server of ${where} rejected client '${settings.clientId}' (${said}). Nothing was stored. Check the clientId and the ${plan.key === undefined ? 'client secret its reference points to' : 'private key its reference points to, and that its public key is registered for the client'}.`,
          base,
        );
      }
      if (
        error.code === sdk.OAuthErrorCode.UnauthorizedClient ||
        error.code === sdk.OAuthErrorCode.UnsupportedGrantType
      ) {
        throw new AuthenticationError(
          'STRATOS_AUTH_GRANT_UNSUPPORTED',
          `The authorization server of ${where} does not allow client '${settings.clientId}' the client_credentials grant (${said}). Nothing was stored. Ask its administrator to enable the grant for this client.`,
          base,
        );
      }
      throw new AuthenticationError(
        'STRATOS_AUTH_TOKEN_REQUEST_FAILED',
        `The client-credentials token request of ${where} was refused (${said}). Nothing was stored.${error.code === sdk.OAuthErrorCode.InvalidScope ? ` Check the scope${settings.scope === undefined ? ' (set auth.scope to one the client may have)' : ` '${settings.scope}'`}.` : ''}`,
        base,
      );
    }
    const reason = options.signal?.aborted === true ? 'the invocation ended' : describeError(error);
    throw new AuthenticationError(
      'STRATOS_AUTH_TOKEN_REQUEST_FAILED',
      `The client-credentials token request of ${where} failed: ${reason}. Nothing was stored; try again when the authorization server is reachable.`,
      base,
    );
  }
}

/** The stored record of the identity, after refusing a client id bound to another authorization server. */
async function checkBinding(
  store: CredentialStore,
  identity: {serverUrl: string; authorizationServer: string; clientId: string},
  server: string,
): Promise<CredentialRecord | undefined> {
  const records = await store.read();
  assertNoOtherBinding(records, identity, server);
  return records.find(
    (record) =>
      record.serverUrl === identity.serverUrl &&
      record.authorizationServer === identity.authorizationServer &&
      record.clientId === identity.clientId,
  );
}

function assertNoOtherBinding(
  records: readonly CredentialRecord[],
  identity: {serverUrl: string; authorizationServer: string; clientId: string},
  server: string,
): void {
  const other = records.find(
    (record) =>
      record.serverUrl === identity.serverUrl &&
      record.clientId === identity.clientId &&
      record.authorizationServer !== identity.authorizationServer,
  );
  if (other === undefined) return;
  throw new AuthenticationError(
    'STRATOS_AUTH_SERVER_MISMATCH',
    `The MCP server '${server}' (${identity.serverUrl}) now names the authorization server ${identity.authorizationServer}, but client id '${identity.clientId}' was first used with ${other.authorizationServer}. Stratos sent no token or client credential and kept the stored credentials. If the change is intended, run 'stratos mcp logout --name ${server}' and then 'stratos mcp login --name ${server}'.`,
    {
      server,
      serverUrl: identity.serverUrl,
      details: {
        boundAuthorizationServer: other.authorizationServer,
        discoveredAuthorizationServer: identity.authorizationServer,
      },
    },
  );
}
