/**
 * The private key of `private_key_jwt` client authentication (RFC 7523): PEM (PKCS #8, PKCS #1 RSA or SEC 1 EC)
 * or a JWK as JSON, read by Node's crypto and handed to the SDK as a JWK. The signing algorithm is the configured
 * one, checked against the key type, or the usual one of the key: RS256, PS256, ES256/ES384/ES512 by curve,
 * EdDSA. Messages never quote the key.
 */
import {createPrivateKey, type KeyObject} from 'node:crypto';
import {AuthenticationError, registerCredentialSecret} from '../../errors/index.ts';

export interface ClientAssertionKey {
  /** The private key as a JWK (a secret value). */
  jwk: Record<string, unknown>;
  algorithm: string;
}

const curveAlgorithms: Record<string, string> = {'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512'};

/**
 * @throws AuthenticationError `STRATOS_AUTH_KEY_INVALID`.
 */
export function readClientAssertionKey(
  text: string,
  options: {server: string; algorithm: string | undefined},
): ClientAssertionKey {
  const invalid = (problem: string) =>
    new AuthenticationError(
      'STRATOS_AUTH_KEY_INVALID',
      `The privateKey of MCP server '${options.server}' cannot sign client assertions: ${problem} Nothing was sent or stored.`,
      {server: options.server},
    );
  let key: KeyObject;
  try {
    const trimmed = text.trim();
    key = trimmed.startsWith('{')
      ? createPrivateKey({key: JSON.parse(trimmed) as never, format: 'jwk'})
      : createPrivateKey(trimmed);
  } catch {
    throw invalid(
      'it is not a private key in PEM (BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY, BEGIN EC PRIVATE KEY) or JWK form. Point the reference at the private key file, not the public key or a certificate.',
    );
  }
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const jwk = key.export({format: 'jwk'}) as Record<string, unknown>;
  for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
    if (typeof jwk[part] === 'string') registerCredentialSecret(jwk[part]);
  }
  const usual =
    type === 'rsa'
      ? 'RS256'
      : type === 'rsa-pss'
        ? 'PS256'
        : type === 'ec'
          ? curveAlgorithms[String(jwk.crv ?? curve)]
          : type === 'ed25519'
            ? 'EdDSA'
            : undefined;
  if (usual === undefined) {
    throw invalid(
      `its type (${type ?? 'unknown'}${curve === undefined ? '' : ` ${curve}`}) is not one Stratos signs with; use an RSA, EC P-256/P-384/P-521 or Ed25519 key.`,
    );
  }
  const algorithm = options.algorithm ?? usual;
  if (!fits(algorithm, type!, usual)) {
    throw invalid(
      `signingAlgorithm ${algorithm} does not fit its ${type} key; use ${usual} or remove signingAlgorithm.`,
    );
  }
  return {jwk, algorithm};
}

function fits(algorithm: string, type: string, usual: string): boolean {
  if (type === 'rsa') return /^(RS|PS)(256|384|512)$/.test(algorithm);
  if (type === 'rsa-pss') return /^PS(256|384|512)$/.test(algorithm);
  return algorithm === usual;
}
