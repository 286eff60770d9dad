// The process-wide secret set: the forms a secret is registered in, multi-line secrets line by line without the
// armour every key shares, and one left-to-right pass that leaves no secret whole.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  isSecretLine,
  redactCredentialSecrets,
  registerCredentialSecret,
} from '../../../src/errors/credential-secrets.ts';

const keyLines = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7unitTestKey1',
  'W1y3lqfJdZ8Vr0q7hK2bq9Jm5TnE0xYcN4pLs8uRt6aGzXvB2oIiD3eFkMwQh9l',
  'AbCdEf0123456789+/Zz==',
];
const pem = `-----BEGIN PRIVATE KEY-----\r\n${keyLines.join('\r\n')}\r\n-----END PRIVATE KEY-----`;

test('a multi-line secret is redacted whole and line by line; the PEM armour stays readable', () => {
  registerCredentialSecret(pem);
  assert.equal(redactCredentialSecrets(`key: ${pem}.`), 'key: [REDACTED].');
  for (const line of keyLines) {
    assert.equal(redactCredentialSecrets(`  ${line}\n`), '  [REDACTED]\n', line);
  }
  const armour = 'Paste the key after -----BEGIN PRIVATE KEY----- and end with -----END PRIVATE KEY-----.';
  assert.equal(redactCredentialSecrets(armour), armour);
});

test('which lines of a multi-line secret count', () => {
  for (const line of keyLines) assert.ok(isSecretLine(line), line);
  for (const line of [
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----END OPENSSH PRIVATE KEY-----',
    'Proc-Type: 4,ENCRYPTED',
    'DEK-Info: AES-128-CBC,0123456789ABCDEF',
    'Comment: "rsa-key-20240101"',
    '}',
    'AbCd==',
    '',
  ])
    assert.ok(!isSecretLine(line), line);
});

test('a secret travels redacted as written, URL-encoded and without its scheme word', () => {
  registerCredentialSecret('Bearer tok/with+chars=1234');
  assert.equal(
    redactCredentialSecrets('a Bearer tok/with+chars=1234 b tok%2Fwith%2Bchars%3D1234 c tok/with+chars=1234'),
    'a [REDACTED] b [REDACTED] c [REDACTED]',
  );
  registerCredentialSecret('abc');
  assert.equal(redactCredentialSecrets('abc stays'), 'abc stays', 'too short to replace inside text');
});

test('secrets sharing text: the longest at each position wins and none is left whole', () => {
  registerCredentialSecret('shared-4f1a9c');
  registerCredentialSecret('shared-4f1a9c-d2e8b7');
  registerCredentialSecret('9c-d2e8b7-tail77');
  const output = redactCredentialSecrets('x shared-4f1a9c-d2e8b7-tail77 y shared-4f1a9c z');
  assert.equal(output, 'x [REDACTED]-tail77 y [REDACTED] z');
});
