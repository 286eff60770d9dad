/**
 * `auth: {type: oauth, ...}` of an HTTP MCP server: the browser sign-in (authorization-code grant, the default)
 * or the client-credentials grant of machine clients (`grant: client_credentials`, SEP-1046), which needs a
 * pre-registered `clientId` and exactly one client credential: `clientSecret` or `privateKey` (RFC 7523
 * `private_key_jwt`), each given only as one `{env:NAME}` or `{file:path}` reference.
 */
import {isScalar} from 'yaml';
import {checkRequiredKeys, fieldLabel} from './map-entries.ts';
import {readFixedMapping, readPort, readString, readUrl} from './scalar-fields.ts';
import type {OAuthConfig} from './types.ts';
import {describeValue, type ManifestEntry, quote, type ValidationContext} from './validation-context.ts';

const oauthKeys = [
  'type',
  'grant',
  'clientId',
  'clientSecret',
  'privateKey',
  'signingAlgorithm',
  'scope',
  'callbackPort',
  'redirectUri',
  'clientMetadataUrl',
] as const;

/** Signing algorithms of `private_key_jwt` assertions that Stratos can produce. */
export const clientAssertionAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/** Keys that only the browser sign-in uses. */
const browserOnlyKeys = ['callbackPort', 'redirectUri', 'clientMetadataUrl'] as const;

/** A value that is exactly one `{env:NAME}` or `{file:path}` reference. */
const singleReferencePattern = /^\{(env|file):[^{}]+\}$/;

/** Validates `auth` and returns the settings when it has no error. */
export function validateOAuth(ctx: ValidationContext, entry: ManifestEntry): OAuthConfig | undefined {
  const fields = readFixedMapping(ctx, entry, oauthKeys, "with type 'oauth'");
  if (fields === undefined) return undefined;
  const before = ctx.errorCount();
  const typeEntry = fields.get('type');
  if (typeEntry === undefined) {
    checkRequiredKeys(ctx, entry, [], [{name: 'type', hint: "'oauth', the one supported authentication"}]);
  } else if (!isScalar(typeEntry.value) || typeEntry.value.value !== 'oauth') {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(typeEntry)} must be 'oauth'; got ${describeValue(typeEntry.value)}. ` +
        'For a fixed token, use headers with an {env:NAME} reference instead of auth.',
      typeEntry,
    );
  }
  const config: OAuthConfig = {type: 'oauth'};
  const grantEntry = fields.get('grant');
  if (grantEntry !== undefined) {
    const grant = readString(ctx, grantEntry, {nonBlank: true});
    if (grant === 'authorization_code' || grant === 'client_credentials') config.grant = grant;
    else if (grant !== undefined) {
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        `${fieldLabel(grantEntry)} must be 'authorization_code' (browser sign-in, the default) or 'client_credentials' (machine clients without a browser); got ${quote(grant)}.`,
        grantEntry,
      );
    }
  }
  for (const key of ['clientId', 'clientSecret', 'privateKey', 'signingAlgorithm', 'scope'] as const) {
    const child = fields.get(key);
    const value = child === undefined ? undefined : readString(ctx, child, {nonBlank: true});
    if (value !== undefined) config[key] = value;
  }
  const portEntry = fields.get('callbackPort');
  const port = portEntry === undefined ? undefined : readPort(ctx, portEntry);
  if (port !== undefined) config.callbackPort = port;
  const redirectEntry = fields.get('redirectUri');
  const redirectUri =
    redirectEntry === undefined
      ? undefined
      : readUrl(ctx, redirectEntry, ['http', 'https'], 'http://127.0.0.1:8765/mcp/oauth/callback');
  if (redirectUri !== undefined) config.redirectUri = redirectUri;
  const metadataEntry = fields.get('clientMetadataUrl');
  const metadataUrl =
    metadataEntry === undefined
      ? undefined
      : readUrl(ctx, metadataEntry, ['https'], 'https://example.com/oauth/client.json');
  if (metadataUrl !== undefined) config.clientMetadataUrl = metadataUrl;
  if (ctx.errorCount() === before) checkGrantKeys(ctx, entry, fields, config);
  return ctx.errorCount() === before ? config : undefined;
}

function checkGrantKeys(
  ctx: ValidationContext,
  entry: ManifestEntry,
  fields: Map<string, ManifestEntry>,
  config: OAuthConfig,
): void {
  const field = (key: string) => fields.get(key)!;
  if (config.grant !== 'client_credentials') {
    for (const key of ['privateKey', 'signingAlgorithm'] as const) {
      if (config[key] === undefined) continue;
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        `${fieldLabel(field(key))} is used only by the client-credentials grant. Add 'grant: client_credentials' to this auth, or remove ${key}.`,
        field(key),
      );
    }
    return;
  }
  if (config.clientId === undefined) {
    checkRequiredKeys(
      ctx,
      entry,
      [...fields.values()],
      [{name: 'clientId', hint: 'the client id the authorization server registered for this machine client'}],
    );
  }
  for (const key of browserOnlyKeys) {
    if (config[key] === undefined) continue;
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(field(key))} belongs to the browser sign-in, which the client-credentials grant does not use. Remove it.`,
      field(key),
    );
  }
  if ((config.clientSecret === undefined) === (config.privateKey === undefined)) {
    ctx.report(
      config.clientSecret === undefined ? 'STRATOS_MANIFEST_FIELD_MISSING' : 'STRATOS_MANIFEST_FIELD_INVALID',
      config.clientSecret === undefined
        ? `${fieldLabel(entry)} with 'grant: client_credentials' needs one client credential: clientSecret ("{env:NAME}" or "{file:path}", sent as client_secret_basic) or privateKey (a PEM or JWK private key through "{file:path}" or "{env:NAME}", for private_key_jwt).`
        : `${fieldLabel(entry)} sets both clientSecret and privateKey; the client-credentials grant authenticates with one of them. Remove the other.`,
      config.clientSecret === undefined ? entry : field('privateKey'),
    );
  }
  for (const key of ['clientSecret', 'privateKey'] as const) {
    const value = config[key];
    if (value === undefined || singleReferencePattern.test(value.trim())) continue;
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(field(key))} must be one {env:NAME} or {file:path} reference, never the secret itself: workflow.yaml is shared through Git. Move the value into an environment variable or an owner-only file (chmod 600) and write "{env:NAME}" or "{file:path}".`,
      field(key),
    );
  }
  const algorithm = config.signingAlgorithm;
  if (algorithm !== undefined && config.privateKey === undefined) {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(field('signingAlgorithm'))} signs private_key_jwt assertions and needs privateKey. Remove it, or configure privateKey instead of clientSecret.`,
      field('signingAlgorithm'),
    );
  } else if (
    algorithm !== undefined &&
    !(clientAssertionAlgorithms as readonly string[]).includes(algorithm)
  ) {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(field('signingAlgorithm'))} must be one of ${clientAssertionAlgorithms.join(', ')}; got ${quote(algorithm)}. Leave it out to use the usual algorithm of the key.`,
      field('signingAlgorithm'),
    );
  }
}
