/**
 * `auth: {type: oauth, ...}` of an HTTP MCP server, checked and resolved: the client secret's and private key's
 * `{env:}`/`{file:}` references are read, and the callback address is worked out from `callbackPort` and
 * `redirectUri`.
 */
import {resolveReferences} from '../../config/index.ts';
import {AuthenticationError, registerCredentialSecret} from '../../errors/index.ts';
import type {OAuthConfig} from '../../manifest/index.ts';
import {defaultCallbackPath} from './loopback-callback.ts';

export interface OAuthSettings {
  /** `client_credentials`: a machine client, no browser (see client-credentials.ts). */
  grant: 'authorization_code' | 'client_credentials';
  clientId: string | undefined;
  /** The resolved secret value (never shown anywhere). */
  clientSecret: string | undefined;
  /** client_credentials: the resolved private key text (PEM or JWK JSON; never shown anywhere). */
  privateKey: string | undefined;
  signingAlgorithm: string | undefined;
  scope: string | undefined;
  clientMetadataUrl: string | undefined;
  /** Port the callback listener binds; 0 for a free one. */
  callbackPort: number;
  /**
   * Addresses the callback listener binds, from the host `redirectUri` names: `[::1]` → `::1`, `localhost` →
   * `127.0.0.1` and `::1` (the browser may resolve it to either), otherwise `127.0.0.1`.
   */
  callbackHosts: readonly string[];
  callbackPath: string;
  /** The redirect URI sent to the authorization server when fixed by configuration. */
  redirectUri: string | undefined;
}

export interface ResolveOAuthSettingsOptions {
  server: string;
  workflow: string;
  /** `{file:}` references resolve relative to the workflow directory. */
  directory: string;
  env?: NodeJS.ProcessEnv;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * @throws AuthenticationError `STRATOS_AUTH_CONFIG_INVALID`; StratosError `STRATOS_CONFIG_*` for the secret reference.
 */
export async function resolveOAuthSettings(
  config: OAuthConfig,
  options: ResolveOAuthSettingsOptions,
): Promise<OAuthSettings> {
  const where = `auth of MCP server '${options.server}' in workflow '${options.workflow}'`;
  const invalid = (problem: string) =>
    new AuthenticationError('STRATOS_AUTH_CONFIG_INVALID', `The ${where} is not usable: ${problem}`, {
      server: options.server,
      details: {workflow: options.workflow},
    });
  if (config.clientSecret !== undefined && config.clientId === undefined) {
    throw invalid('clientSecret is set without clientId. Add the clientId the secret belongs to.');
  }
  const grant = config.grant ?? 'authorization_code';
  if (grant === 'client_credentials') checkClientCredentialsConfig(config, invalid);
  else if (config.privateKey !== undefined) {
    throw invalid("privateKey is used only with 'grant: client_credentials'.");
  }
  const resolve = async (key: 'clientSecret' | 'privateKey') => {
    const value = config[key];
    if (value === undefined) return undefined;
    const resolved = await resolveReferences(value, {
      directory: options.directory,
      field: `${key} of the ${where}`,
      ...(options.env === undefined ? {} : {env: options.env}),
    });
    registerCredentialSecret(resolved);
    return resolved;
  };
  const clientSecret = await resolve('clientSecret');
  const privateKey = await resolve('privateKey');
  if (config.clientMetadataUrl !== undefined && !isHttpsDocumentUrl(config.clientMetadataUrl)) {
    throw invalid('clientMetadataUrl must be an https URL with a path (a Client ID Metadata Document).');
  }
  let callbackPort = config.callbackPort ?? 0;
  let callbackPath = defaultCallbackPath;
  let callbackHosts: readonly string[] = ['127.0.0.1'];
  let redirectUri: string | undefined;
  if (config.redirectUri !== undefined) {
    let url: URL;
    try {
      url = new URL(config.redirectUri);
    } catch {
      throw invalid(`redirectUri '${config.redirectUri}' is not a URL.`);
    }
    if (url.protocol !== 'http:' || !loopbackHosts.has(url.hostname)) {
      throw invalid(
        `redirectUri '${config.redirectUri}' must be an http address on 127.0.0.1, localhost or [::1]: the callback listener runs on this machine.`,
      );
    }
    const port = url.port === '' ? 80 : Number(url.port);
    if (config.callbackPort !== undefined && config.callbackPort !== port) {
      throw invalid(
        `callbackPort ${config.callbackPort} differs from the port of redirectUri '${config.redirectUri}'.`,
      );
    }
    callbackPort = port;
    callbackPath = url.pathname;
    callbackHosts = listenAddressesOf(url.hostname);
    redirectUri = config.redirectUri;
  } else if (config.callbackPort !== undefined) {
    redirectUri = `http://127.0.0.1:${config.callbackPort}${defaultCallbackPath}`;
  }
  return {
    grant,
    clientId: config.clientId,
    clientSecret,
    privateKey,
    signingAlgorithm: config.signingAlgorithm,
    scope: config.scope,
    clientMetadataUrl: config.clientMetadataUrl,
    callbackPort,
    callbackPath,
    callbackHosts,
    redirectUri,
  };
}

/** The loopback addresses a redirect host reaches: where the callback listener must be for the browser to get there. */
function listenAddressesOf(hostname: string): readonly string[] {
  if (hostname === '[::1]') return ['::1'];
  if (hostname === 'localhost') return ['127.0.0.1', '::1'];
  return ['127.0.0.1'];
}

function isHttpsDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

/** A value that is exactly one `{env:NAME}` or `{file:path}` reference. */
const singleReferencePattern = /^\{(env|file):[^{}]+\}$/;

/**
 * The client-credentials rules of the manifest validator, again for settings built in code: a client id, one
 * credential, each only as a reference, no browser settings.
 */
function checkClientCredentialsConfig(
  config: OAuthConfig,
  invalid: (problem: string) => AuthenticationError,
): void {
  if (config.clientId === undefined) {
    throw invalid("'grant: client_credentials' needs the clientId the authorization server registered.");
  }
  if ((config.clientSecret === undefined) === (config.privateKey === undefined)) {
    throw invalid("'grant: client_credentials' needs exactly one of clientSecret and privateKey.");
  }
  for (const key of ['clientSecret', 'privateKey'] as const) {
    const value = config[key];
    if (value !== undefined && !singleReferencePattern.test(value.trim())) {
      throw invalid(`${key} must be one {env:NAME} or {file:path} reference, never the secret itself.`);
    }
  }
  for (const key of ['callbackPort', 'redirectUri', 'clientMetadataUrl'] as const) {
    if (config[key] !== undefined) {
      throw invalid(`${key} belongs to the browser sign-in, which 'grant: client_credentials' does not use.`);
    }
  }
}
