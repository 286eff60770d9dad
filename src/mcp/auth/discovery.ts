/**
 * Authorization discovery for one MCP server with the official SDK: an unauthenticated probe reads the 401
 * challenge (`WWW-Authenticate` with `resource_metadata` and `scope`), then the SDK reads the protected-resource
 * metadata (RFC 9728) and the authorization-server metadata (RFC 8414, OpenID discovery as fallback). The resource
 * indicator is checked against the server URL before anything is sent. Results are kept in memory for a few
 * minutes, so a run's preflight and its connections discover once.
 */
import type {FetchLike, OAuthDiscoveryState} from '@modelcontextprotocol/client';
import {AuthenticationError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';

export interface AuthorizationDiscovery {
  serverUrl: string;
  /** What the SDK's `auth()` accepts as cached discovery (`OAuthClientProvider.discoveryState`). */
  state: OAuthDiscoveryState;
  /** The authorization server's issuer: the `authorizationServer` of credential records. */
  issuer: string;
  /** The scope named by the 401 challenge, if any. */
  challengeScope: string | undefined;
  /** The RFC 8707 resource indicator to send, when the server publishes protected-resource metadata. */
  resource: URL | undefined;
}

export interface DiscoverAuthorizationOptions {
  /** The `mcp.servers` key, for messages. */
  server: string;
  fetchFn: FetchLike;
  /** Ignore the in-memory cache (after a changed authorization server is suspected). */
  fresh?: boolean;
}

const cacheMs = 5 * 60_000;
const cache = new Map<string, {at: number; value: AuthorizationDiscovery}>();

/**
 * @throws AuthenticationError `STRATOS_AUTH_DISCOVERY_FAILED`.
 */
export async function discoverAuthorization(
  serverUrl: string,
  options: DiscoverAuthorizationOptions,
): Promise<AuthorizationDiscovery> {
  const cached = cache.get(serverUrl);
  if (options.fresh !== true && cached !== undefined && Date.now() - cached.at < cacheMs) return cached.value;
  const sdk = await import('@modelcontextprotocol/client');
  try {
    const challenge = await probeChallenge(
      serverUrl,
      options.server,
      options.fetchFn,
      sdk.extractWWWAuthenticateParams,
    );
    const info = await sdk.discoverOAuthServerInfo(serverUrl, {
      ...(challenge.resourceMetadataUrl === undefined
        ? {}
        : {resourceMetadataUrl: challenge.resourceMetadataUrl}),
      fetchFn: options.fetchFn,
    });
    const selected = await sdk.selectResourceURL(serverUrl, {} as never, info.resourceMetadata);
    const value: AuthorizationDiscovery = {
      serverUrl,
      state: {
        authorizationServerUrl: String(info.authorizationServerUrl),
        ...(challenge.resourceMetadataUrl === undefined
          ? {}
          : {resourceMetadataUrl: challenge.resourceMetadataUrl.toString()}),
        ...(info.resourceMetadata === undefined ? {} : {resourceMetadata: info.resourceMetadata}),
        ...(info.authorizationServerMetadata === undefined
          ? {}
          : {authorizationServerMetadata: info.authorizationServerMetadata}),
      },
      issuer: info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl),
      challengeScope: challenge.scope,
      // As the SDK's auth(): the metadata's own resource string when there is metadata.
      resource:
        selected !== undefined && info.resourceMetadata !== undefined
          ? new URL(info.resourceMetadata.resource)
          : selected,
    };
    cache.set(serverUrl, {at: Date.now(), value});
    return value;
  } catch (error) {
    if (error instanceof AuthenticationError) throw error;
    throw new AuthenticationError(
      'STRATOS_AUTH_DISCOVERY_FAILED',
      `The OAuth authorization of MCP server '${options.server}' (${serverUrl}) could not be discovered: ${describeError(error)}`,
      {server: options.server, serverUrl, cause: error},
    );
  }
}

/** Forgets discovered metadata (tests, logout). */
export function clearDiscoveryCache(serverUrl?: string): void {
  if (serverUrl === undefined) cache.clear();
  else cache.delete(serverUrl);
}

async function probeChallenge(
  serverUrl: string,
  server: string,
  fetchFn: FetchLike,
  extract: typeof import('@modelcontextprotocol/client').extractWWWAuthenticateParams,
): Promise<{resourceMetadataUrl?: URL | undefined; scope?: string | undefined}> {
  // An initialize request without credentials: harmless, and every protected MCP endpoint answers it with its
  // challenge. Servers that answer anything else simply give no hint, and well-known discovery follows.
  let response: Response;
  try {
    response = await fetchFn(serverUrl, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream'},
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: {name: 'stratos', version: '0'},
        },
      }),
    });
  } catch (error) {
    throw new AuthenticationError(
      'STRATOS_AUTH_DISCOVERY_FAILED',
      `The OAuth authorization of MCP server '${server}' (${serverUrl}) could not be discovered: the server could not be reached (${describeError(error)}). Check its URL in mcp.servers of workflow.yaml and that it is running.`,
      {server, serverUrl, cause: error},
    );
  }
  await response.body?.cancel().catch(() => {});
  if (response.status !== 401 && response.status !== 403) return {};
  const params = extract(response);
  return {resourceMetadataUrl: params.resourceMetadataUrl, scope: params.scope};
}
