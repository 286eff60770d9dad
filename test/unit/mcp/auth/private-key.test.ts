import assert from 'node:assert/strict';
import {generateKeyPairSync} from 'node:crypto';
import {test} from 'node:test';
import {AuthenticationError} from '../../../../src/errors/index.ts';
import {readClientAssertionKey} from '../../../../src/mcp/auth/private-key.ts';

const pem = (type: 'rsa' | 'ec' | 'ed25519', options: Record<string, unknown> = {}): string => {
  // The options object form returns KeyObjects; the overloads are chosen by the literal key type.
  const {privateKey} = generateKeyPairSync(type as 'rsa', options as {modulusLength: number}) as {
    privateKey: import('node:crypto').KeyObject;
  };
  return privateKey.export({type: 'pkcs8', format: 'pem'}).toString();
};

test('the usual algorithm of each key type, from PEM or JWK text', () => {
  const read = (text: string, algorithm?: string) =>
    readClientAssertionKey(text, {server: 's', algorithm}).algorithm;
  assert.equal(read(pem('rsa', {modulusLength: 2048})), 'RS256');
  assert.equal(read(pem('rsa', {modulusLength: 2048}), 'PS384'), 'PS384');
  assert.equal(read(pem('ec', {namedCurve: 'P-256'})), 'ES256');
  assert.equal(read(pem('ec', {namedCurve: 'P-384'})), 'ES384');
  assert.equal(read(pem('ed25519')), 'EdDSA');
  const jwk = generateKeyPairSync('ec', {namedCurve: 'P-521'}).privateKey.export({format: 'jwk'});
  const key = readClientAssertionKey(`\n${JSON.stringify(jwk)}\n`, {server: 's', algorithm: undefined});
  assert.equal(key.algorithm, 'ES512');
  assert.equal(key.jwk.d, jwk.d, 'the private part is handed on as a JWK');
  // PKCS #1 and SEC 1 PEM forms are read too.
  const sec1 = generateKeyPairSync('ec', {namedCurve: 'P-256'})
    .privateKey.export({type: 'sec1', format: 'pem'})
    .toString();
  assert.equal(read(sec1), 'ES256');
});

test('a public key, garbage, an unsupported curve or an algorithm that does not fit is STRATOS_AUTH_KEY_INVALID', () => {
  const pair = generateKeyPairSync('ec', {namedCurve: 'P-256'});
  const publicPem = pair.publicKey.export({type: 'spki', format: 'pem'}).toString();
  const privatePem = pair.privateKey.export({type: 'pkcs8', format: 'pem'}).toString();
  const cases: [string, string | undefined, RegExp][] = [
    [publicPem, undefined, /not a private key/],
    ['just some text', undefined, /not a private key/],
    ['{"kty": "oct", "k": "c2VjcmV0"}', undefined, /not a private key/],
    [pem('ec', {namedCurve: 'secp256k1'}), undefined, /is not one Stratos signs with/],
    [privatePem, 'RS256', /RS256 does not fit its ec key; use ES256/],
    [privatePem, 'ES384', /ES384 does not fit/],
  ];
  for (const [text, algorithm, message] of cases) {
    assert.throws(
      () => readClientAssertionKey(text, {server: 'company', algorithm}),
      (error: unknown) => {
        assert.ok(error instanceof AuthenticationError);
        assert.equal(error.code, 'STRATOS_AUTH_KEY_INVALID');
        assert.match(error.message, message);
        assert.match(error.message, /MCP server 'company'/);
        assert.ok(!error.message.includes(text.split('\n')[1] ?? text), 'the key is never quoted');
        return true;
      },
    );
  }
});
