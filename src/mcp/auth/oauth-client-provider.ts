/**
 * The SDK's OAuthClientProvider over the credential store, for one browser sign-in. The SDK's `auth()` does
 * discovery (given to it as cached state, already checked by Stratos), registration, the PKCE authorization
 * request and the code exchange; this provider saves what it produces the moment it is produced:
 *
 * - a registered client (Dynamic Client Registration or a Client ID Metadata Document) is saved before the
 *   browser opens, so it is reused by every later sign-in and never registered again while it is valid;
 * - tokens are saved as soon as the code is exchanged.
 *
 * It never returns tokens to `auth()`: refresh is Stratos's own (see token-refresh.ts), under its refresh lock.
 */
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import {AuthenticationError, registerCredentialSecret} from '../../errors/index.ts';
import type {CredentialRecord, CredentialStore} from '../credentials/index.ts';

export interface StratosOAuthClientProviderOptions {
  store: CredentialStore;
  serverUrl: string;
  redirectUrl: string;
  /** `auth: {scope}` or the challenge's scope; also sent in the registration request. */
  scope: string | undefined;
  clientMetadataUrl: string | undefined;
  /** Token endpoint authentication to ask for in Dynamic Client Registration. */
  registrationAuthMethod: string;
  discovery: OAuthDiscoveryState;
  /** Supplied or previously registered client, already bound to the discovered issuer. */
  client: StoredOAuthClientInformation | undefined;
  state: string;
  /** Called with the authorization URL; opens the browser. */
  onAuthorizationUrl(url: URL): Promise<void>;
}

export class StratosOAuthClientProvider implements OAuthClientProvider {
  readonly #options: StratosOAuthClientProviderOptions;
  #client: StoredOAuthClientInformation | undefined;
  #codeVerifier: string | undefined;
  #saved: CredentialRecord | undefined;

  constructor(options: StratosOAuthClientProviderOptions) {
    this.#options = options;
    this.#client = options.client;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  clientMetadataUrl?: string;

  get redirectUrl(): string {
    return this.#options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Stratos',
      redirect_uris: [this.#options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.#options.registrationAuthMethod,
      ...(this.#options.scope === undefined ? {} : {scope: this.#options.scope}),
    };
  }

  /** The record the sign-in saved last (client, then tokens). */
  get savedRecord(): CredentialRecord | undefined {
    return this.#saved;
  }

  state(): string {
    return this.#options.state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#client;
  }

  async saveClientInformation(
    information: StoredOAuthClientInformation,
    context?: OAuthClientInformationContext,
  ): Promise<void> {
    this.#client = information;
    registerCredentialSecret(information.client_secret);
    const issuer = context?.issuer ?? information.issuer;
    if (issuer === undefined) return;
    await this.#save(issuer, (record) => record);
  }

  tokens(): StoredOAuthTokens | undefined {
    return undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens, context?: OAuthClientInformationContext): Promise<void> {
    registerCredentialSecret(tokens.access_token);
    registerCredentialSecret(tokens.refresh_token);
    const issuer = context?.issuer ?? tokens.issuer;
    if (issuer === undefined)
      throw new AuthenticationError(
        'STRATOS_AUTH_TOKEN_EXCHANGE_FAILED',
        `The MCP SDK returned tokens for ${this.#options.serverUrl} without naming the authorization server that issued them, so Stratos did not store them. Sign in again; if it repeats, report it.`,
        {serverUrl: this.#options.serverUrl},
      );
    await this.#save(issuer, (record) => applyTokenResponse(record, tokens));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.#options.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined)
      throw new AuthenticationError(
        'STRATOS_AUTH_TOKEN_EXCHANGE_FAILED',
        `No PKCE code verifier was saved for this sign-in to ${this.#options.serverUrl}, so the authorization code cannot be exchanged. Start the sign-in again.`,
        {serverUrl: this.#options.serverUrl},
      );
    return this.#codeVerifier;
  }

  discoveryState(): OAuthDiscoveryState {
    return this.#options.discovery;
  }

  saveDiscoveryState(): void {
    // Discovery is Stratos's (checked against the authorization-server binding before auth() runs).
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'verifier') this.#codeVerifier = undefined;
    // A rejected registered client is registered again by auth(); the new one replaces it in the store.
    if ((scope === 'all' || scope === 'client') && this.#client?.client_secret === undefined)
      this.#client = undefined;
  }

  async #save(issuer: string, change: (record: CredentialRecord) => CredentialRecord): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    const identity = {
      serverUrl: this.#options.serverUrl,
      authorizationServer: issuer,
      clientId: client.client_id,
    };
    this.#saved = await this.#options.store.update((records) => {
      const existing = records.find(
        (record) =>
          record.serverUrl === identity.serverUrl &&
          record.authorizationServer === identity.authorizationServer &&
          record.clientId === identity.clientId,
      );
      const base: CredentialRecord = {...existing, ...identity};
      if (client.client_secret !== undefined) base.clientSecret = client.client_secret;
      if ('client_secret_expires_at' in client && client.client_secret_expires_at !== undefined)
        base.clientSecretExpiresAt = client.client_secret_expires_at;
      if ('token_endpoint_auth_method' in client && typeof client.token_endpoint_auth_method === 'string')
        base.tokenEndpointAuthMethod = client.token_endpoint_auth_method;
      const next = change(base);
      return {records: [...records.filter((record) => record !== existing), next], result: next};
    });
  }
}

/** A record with a token response applied: a response without a refresh token keeps the stored one. */
export function applyTokenResponse(
  record: CredentialRecord,
  tokens: StoredOAuthTokens,
  now = Date.now(),
): CredentialRecord {
  const next: CredentialRecord = {...record, accessToken: tokens.access_token};
  if (tokens.refresh_token !== undefined) next.refreshToken = tokens.refresh_token;
  // The lifetime comes only from expires_in; nothing is read out of the token itself.
  if (typeof tokens.expires_in === 'number') next.expiresAt = Math.floor(now / 1000) + tokens.expires_in;
  else delete next.expiresAt;
  if (tokens.scope !== undefined) next.scope = tokens.scope;
  return next;
}
