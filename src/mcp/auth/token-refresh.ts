/**
 * Refreshing one stored credential, safe across processes: take the credential's refresh lock, re-read the
 * record, and refresh only when no other process has done it meanwhile. The rotated tokens go into a pending file
 * opened before the request, then into the credential file; a failed save cannot lose them. A network or server
 * failure keeps the stored credentials; `invalid_grant` (revoked, expired or replayed refresh token) clears the
 * dead tokens and asks for a new sign-in.
 */
import type {FetchLike} from '@modelcontextprotocol/client';
import {AuthenticationError} from '../../errors/index.ts';
import {type CredentialRecord, type CredentialStore, identityOf, sameIdentity} from '../credentials/index.ts';
import type {AuthorizationDiscovery} from './discovery.ts';
import {applyTokenResponse} from './oauth-client-provider.ts';

export type RefreshOutcome =
  | {kind: 'refreshed'; record: CredentialRecord}
  /** Another process refreshed (or signed in) while this one waited for the lock. */
  | {kind: 'shared'; record: CredentialRecord}
  /** The refresh token is no longer accepted: sign in again. */
  | {kind: 'sign-in-required'};

export interface RefreshCredentialOptions {
  server: string;
  store: CredentialStore;
  /** The record as read before the lock was taken. */
  record: CredentialRecord;
  discovery: AuthorizationDiscovery;
  /** The configured (current) client secret, which wins over a stored one that may have been rotated. */
  clientSecret: string | undefined;
  fetchFn: FetchLike;
  signal?: AbortSignal | undefined;
}

/**
 * @throws AuthenticationError `STRATOS_AUTH_REFRESH_FAILED` (credentials kept), `STRATOS_CREDENTIALS_*`.
 */
export async function refreshCredential(options: RefreshCredentialOptions): Promise<RefreshOutcome> {
  const {store, server, record: seen} = options;
  const identity = identityOf(seen);
  return store.withRefreshLock(
    identity,
    async () => {
      const current = await store.find(identity);
      if (current === undefined) return {kind: 'sign-in-required'};
      if (current.refreshToken !== seen.refreshToken || current.accessToken !== seen.accessToken) {
        return current.accessToken === undefined
          ? {kind: 'sign-in-required'}
          : {kind: 'shared', record: current};
      }
      if (current.refreshToken === undefined) return {kind: 'sign-in-required'};
      const pending = await store.prepareRotation(current);
      const sdk = await import('@modelcontextprotocol/client');
      const metadata = options.discovery.state.authorizationServerMetadata;
      const clientSecret = options.clientSecret ?? current.clientSecret;
      let tokens: Awaited<ReturnType<typeof sdk.refreshAuthorization>>;
      try {
        tokens = await sdk.refreshAuthorization(options.discovery.state.authorizationServerUrl, {
          ...(metadata === undefined ? {} : {metadata}),
          clientInformation: {
            client_id: current.clientId,
            ...(clientSecret === undefined ? {} : {client_secret: clientSecret}),
            ...(current.tokenEndpointAuthMethod === undefined
              ? {}
              : {token_endpoint_auth_method: current.tokenEndpointAuthMethod}),
          },
          refreshToken: current.refreshToken,
          ...(options.discovery.resource === undefined ? {} : {resource: options.discovery.resource}),
          fetchFn: options.fetchFn,
        });
      } catch (error) {
        await pending.discard();
        if (error instanceof sdk.OAuthError && error.code === sdk.OAuthErrorCode.InvalidGrant) {
          await store.update((records) => ({
            records: records.map((item) =>
              sameIdentity(item, identity) && item.refreshToken === current.refreshToken
                ? withoutTokens(item)
                : item,
            ),
            result: undefined,
          }));
          return {kind: 'sign-in-required'};
        }
        const reason = options.signal?.aborted === true ? 'the invocation ended' : describe(error);
        throw new AuthenticationError(
          'STRATOS_AUTH_REFRESH_FAILED',
          `The access token of MCP server '${server}' could not be refreshed: ${reason}. The stored credentials were kept; try again when the authorization server (${identity.authorizationServer}) is reachable.`,
          {server, serverUrl: identity.serverUrl, cause: error},
        );
      }
      const next = applyTokenResponse(current, tokens);
      if (options.clientSecret !== undefined) next.clientSecret = options.clientSecret;
      // The rotated refresh token exists only in memory now: keep it durable before anything else can fail.
      let journaled = true;
      await pending.write(next).catch(() => {
        journaled = false;
      });
      try {
        await saveWithRetry(store, next);
      } catch (error) {
        if (!journaled) await pending.discard().catch(() => {});
        throw new AuthenticationError(
          'STRATOS_CREDENTIALS_WRITE_FAILED',
          journaled
            ? `The refreshed credentials of MCP server '${server}' could not be saved to ${store.file} (${describe(error)}). They are kept in ${pending.path} and are recovered the next time Stratos reads its credentials; fix the problem and run the command again.`
            : `The refreshed credentials of MCP server '${server}' could not be saved to ${store.file} (${describe(error)}); sign in again with 'stratos mcp login --name ${server}'.`,
          {server, serverUrl: identity.serverUrl, cause: error},
        );
      }
      await pending.discard();
      return {kind: 'refreshed', record: next};
    },
    options.signal,
  );
}

async function saveWithRetry(store: CredentialStore, record: CredentialRecord): Promise<void> {
  let last: unknown;
  for (const delayMs of [0, 100, 400]) {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    try {
      await store.upsert(record);
      return;
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

function withoutTokens(record: CredentialRecord): CredentialRecord {
  const {accessToken: _access, refreshToken: _refresh, expiresAt: _expires, ...rest} = record;
  return rest;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as {cause?: unknown}).cause;
  return cause instanceof Error && cause.message !== error.message
    ? `${error.message} (${cause.message})`
    : error.message;
}
