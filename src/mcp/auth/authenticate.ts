/**
 * The one credential-management flow shared by workflow-start authentication, direct connections, the
 * between-request refresh and `stratos mcp login`: discover the authorization server, check the first-use binding
 * of a supplied client secret, then reuse a fresh stored token, refresh a near-expiry one, or sign in. With
 * `grant: client_credentials` the last step is the machine client's token request instead (client-credentials.ts):
 * a stored token with lifetime left is reused, otherwise a new one is fetched, never with a browser.
 */
import type {StoredOAuthClientInformation} from '@modelcontextprotocol/client';
import {AuthenticationError} from '../../errors/index.ts';
import {resolveStratosHome} from '../../internal/stratos-home.ts';
import type {OAuthConfig} from '../../manifest/index.ts';
import {
  type CredentialIdentity,
  type CredentialRecord,
  CredentialStore,
  identityOf,
  sameIdentity,
} from '../credentials/index.ts';
import {authenticateWithClientCredentials} from './client-credentials.ts';
import {type AuthorizationDiscovery, discoverAuthorization} from './discovery.ts';
import {createOAuthFetch} from './oauth-fetch.ts';
import {type OAuthSettings, resolveOAuthSettings} from './oauth-settings.ts';
import {signIn} from './sign-in.ts';
import {refreshCredential} from './token-refresh.ts';

/** A token with a known expiry must have more than this left (docs/contributing/design-decisions.md: five minutes). */
export const refreshMarginSeconds = 5 * 60;

export interface AuthenticateMcpServerOptions {
  /** The `mcp.servers` key. */
  server: string;
  workflow: string;
  serverUrl: string;
  config: OAuthConfig;
  /** The workflow directory (`{file:}` references of clientSecret). */
  directory: string;
  store?: CredentialStore;
  env?: NodeJS.ProcessEnv;
  /** Cancels discovery, refresh and a pending sign-in. */
  signal?: AbortSignal | undefined;
  /**
   * `use` (default): reuse, refresh or sign in. `login`: always sign in anew (explicit `stratos mcp login`); for
   * the client-credentials grant, always fetch a new token.
   */
  mode?: 'use' | 'login';
  onNotice?: ((message: string) => void) | undefined;
  /** Told every credential value that leaves the store (the invocation's telemetry redacts it). */
  registerSecret?: ((value: string) => void) | undefined;
}

export interface AuthenticatedMcpServer {
  server: string;
  identity: CredentialIdentity;
  accessToken: string;
  /** Unix seconds; undefined when the authorization server gave no lifetime. */
  expiresAt: number | undefined;
  scope: string | undefined;
  /** How the token was obtained (`fetched`: a client-credentials token request; `-elsewhere`: another process). */
  source: 'stored' | 'refreshed' | 'refreshed-elsewhere' | 'signed-in' | 'fetched' | 'fetched-elsewhere';
}

/**
 * @throws AuthenticationError (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`); StratosError `STRATOS_CONFIG_*`.
 */
export async function authenticateMcpServer(
  options: AuthenticateMcpServerOptions,
): Promise<AuthenticatedMcpServer> {
  const {server, serverUrl} = options;
  const env = options.env ?? process.env;
  const store = options.store ?? new CredentialStore({home: resolveStratosHome(env)});
  const settings = await resolveOAuthSettings(options.config, {
    server,
    workflow: options.workflow,
    directory: options.directory,
    env,
  });
  const fetchFn = createOAuthFetch(options.signal);
  const discovery = await discoverAuthorization(serverUrl, {server, fetchFn});
  const result = (
    found: CredentialRecord,
    source: AuthenticatedMcpServer['source'],
  ): AuthenticatedMcpServer => {
    options.registerSecret?.(found.accessToken!);
    return {
      server,
      identity: identityOf(found),
      accessToken: found.accessToken!,
      expiresAt: found.expiresAt,
      scope: found.scope,
      source,
    };
  };

  if (settings.grant === 'client_credentials') {
    const obtained = await authenticateWithClientCredentials({
      server,
      serverUrl,
      settings,
      discovery,
      store,
      fetchFn,
      signal: options.signal,
      mode: options.mode ?? 'use',
      usable: (record) => hasLifetime(record),
    });
    assertLifetime(obtained.record, server);
    return result(obtained.record, obtained.source);
  }

  const record = await findClientRecord(store, settings, discovery, server);
  if (options.mode !== 'login' && record?.accessToken !== undefined) {
    if (hasLifetime(record)) return result(record, 'stored');
    if (record.refreshToken !== undefined) {
      const outcome = await refreshCredential({
        server,
        store,
        record,
        discovery,
        clientSecret: settings.clientSecret,
        fetchFn,
        signal: options.signal,
      });
      if (outcome.kind !== 'sign-in-required') {
        // Saved already, even when too short: no second refresh or sign-in to chase a longer token.
        assertLifetime(outcome.record, server);
        return result(outcome.record, outcome.kind === 'refreshed' ? 'refreshed' : 'refreshed-elsewhere');
      }
      options.onNotice?.(
        `The stored sign-in for MCP server '${server}' is no longer accepted; signing in again.`,
      );
    }
  }

  const latest = record === undefined ? undefined : await store.find(identityOf(record));
  const signedIn = await signIn({
    server,
    serverUrl,
    settings,
    discovery,
    store,
    client: clientInformationOf(latest ?? record, settings, discovery),
    fetchFn,
    signal: options.signal,
    env,
    onNotice: options.onNotice,
  });
  assertLifetime(signedIn, server);
  return result(signedIn, 'signed-in');
}

/** True when the record's access token has more than the refresh margin left, or no known expiry. */
export function hasLifetime(
  record: Pick<CredentialRecord, 'accessToken' | 'expiresAt'>,
  now = Date.now(),
): boolean {
  if (record.accessToken === undefined) return false;
  return record.expiresAt === undefined || record.expiresAt - now / 1000 > refreshMarginSeconds;
}

/** @throws AuthenticationError `STRATOS_AUTH_TOKEN_TOO_SHORT`. */
export function assertLifetime(
  record: Pick<CredentialRecord, 'accessToken' | 'expiresAt'>,
  server: string,
): void {
  if (hasLifetime(record)) return;
  const left =
    record.expiresAt === undefined ? 0 : Math.max(0, Math.round(record.expiresAt - Date.now() / 1000));
  throw new AuthenticationError(
    'STRATOS_AUTH_TOKEN_TOO_SHORT',
    `The access token of MCP server '${server}' has ${left} seconds left, not more than the required ${refreshMarginSeconds}. It was saved, but the workflow did not start; ask the server's administrator for longer-lived tokens, or try again later.`,
    {server, details: {secondsLeft: left}},
  );
}

/**
 * The stored record of the client this configuration uses with the discovered authorization server. A supplied
 * client id and secret are bound to the first authorization server seen (saved now, before any sign-in), and a
 * different one is refused before any token is used or the secret is sent.
 */
async function findClientRecord(
  store: CredentialStore,
  settings: OAuthSettings,
  discovery: AuthorizationDiscovery,
  server: string,
): Promise<CredentialRecord | undefined> {
  const serverUrl = discovery.serverUrl;
  const issuer = discovery.issuer;
  if (settings.clientId !== undefined && settings.clientSecret !== undefined) {
    const clientId = settings.clientId;
    return store.update((records) => {
      const bound = records.filter(
        (record) => record.serverUrl === serverUrl && record.clientId === clientId,
      );
      const other = bound.find((record) => record.authorizationServer !== issuer);
      if (other !== undefined) {
        throw new AuthenticationError(
          'STRATOS_AUTH_SERVER_MISMATCH',
          `The MCP server '${server}' (${serverUrl}) now names the authorization server ${issuer}, but client id '${clientId}' was first used with ${other.authorizationServer}. Stratos sent no token or client secret and kept the stored credentials. If the change is intended, run 'stratos mcp logout --name ${server}' and then 'stratos mcp login --name ${server}'.`,
          {
            server,
            serverUrl,
            details: {
              boundAuthorizationServer: other.authorizationServer,
              discoveredAuthorizationServer: issuer,
            },
          },
        );
      }
      const existing = bound[0];
      if (existing !== undefined) return {records, result: existing};
      const binding: CredentialRecord = {serverUrl, authorizationServer: issuer, clientId};
      return {records: [...records, binding], result: binding};
    });
  }
  const records = (await store.read()).filter(
    (record) => record.serverUrl === serverUrl && record.authorizationServer === issuer,
  );
  if (settings.clientId !== undefined) return records.find((record) => record.clientId === settings.clientId);
  const metadata = discovery.state.authorizationServerMetadata;
  if (settings.clientMetadataUrl !== undefined && metadata?.client_id_metadata_document_supported === true) {
    return records.find((record) => record.clientId === settings.clientMetadataUrl);
  }
  // A registered client: reused while its secret (if any) has not expired. Bindings of supplied clients carry
  // no registration facts and are not taken for a registered client.
  const now = Date.now() / 1000;
  const usable = records.filter(
    (record) =>
      (record.accessToken !== undefined || record.tokenEndpointAuthMethod !== undefined) &&
      !(
        record.clientSecretExpiresAt !== undefined &&
        record.clientSecretExpiresAt > 0 &&
        record.clientSecretExpiresAt <= now
      ),
  );
  return usable.find((record) => record.refreshToken !== undefined) ?? usable[0];
}

function clientInformationOf(
  record: CredentialRecord | undefined,
  settings: OAuthSettings,
  discovery: AuthorizationDiscovery,
): StoredOAuthClientInformation | undefined {
  const issuer = discovery.issuer;
  if (settings.clientId !== undefined) {
    return {
      client_id: settings.clientId,
      ...(settings.clientSecret === undefined ? {} : {client_secret: settings.clientSecret}),
      ...(record?.tokenEndpointAuthMethod === undefined
        ? {}
        : {token_endpoint_auth_method: record.tokenEndpointAuthMethod}),
      issuer,
    };
  }
  if (record === undefined || !sameIdentity(record, {...identityOf(record), authorizationServer: issuer}))
    return undefined;
  return {
    client_id: record.clientId,
    ...(record.clientSecret === undefined ? {} : {client_secret: record.clientSecret}),
    ...(record.clientSecretExpiresAt === undefined
      ? {}
      : {client_secret_expires_at: record.clientSecretExpiresAt}),
    ...(record.tokenEndpointAuthMethod === undefined
      ? {}
      : {token_endpoint_auth_method: record.tokenEndpointAuthMethod}),
    issuer,
  };
}
