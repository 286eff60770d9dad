// Redaction of text written in pieces: whatever the split, the output is the text redacted as if written whole, no
// secret appears whole, and nothing is lost.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {redactCredentialSecrets, registerCredentialSecret} from '../../../src/errors/credential-secrets.ts';
import {StreamRedactor} from '../../../src/telemetry/stream-redactor.ts';

const secret = 'stream-secret-9f3a61c2d4e8';
// Secrets that share a start or contain one another: a held tail must wait for the longest.
const shorter = 'overlap-7c1e90';
const longer = 'overlap-7c1e90-b58d2aa1';
const pem = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDfake1stream',
  'kqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDfake2streamLineTwoXyZ09',
  '-----END PRIVATE KEY-----',
].join('\n');
for (const value of [secret, shorter, longer, pem]) registerCredentialSecret(value);

const text = [
  `start ${secret} middle ${shorter} and ${longer} then ${secret}${secret}`,
  `key:\n${pem}\nend ${'overlap-7c1e9'} ${secret.slice(0, -1)}!`,
].join('\n');

/** Feeds `pieces` through one redactor and returns everything it emitted, flush included. */
function stream(pieces: readonly string[]): string {
  const redactor = new StreamRedactor();
  return pieces.map((piece) => redactor.push(piece)).join('') + redactor.flush();
}

function assertClean(output: string, what: string): void {
  for (const value of [secret, shorter, longer])
    assert.ok(!output.includes(value), `${what}: ${value} leaked`);
  for (const line of pem.split('\n').slice(1, 3))
    assert.ok(!output.includes(line), `${what}: a key line leaked`);
}

test('a text split in two at every offset redacts as if written whole', () => {
  const whole = redactCredentialSecrets(text);
  assertClean(whole, 'whole');
  assert.match(whole, /overlap-7c1e9 stream-secret-9f3a61c2d4e!$/, 'near misses stay readable');
  for (let cut = 0; cut <= text.length; cut++) {
    const output = stream([text.slice(0, cut), text.slice(cut)]);
    assert.equal(output, whole, `cut at ${cut}`);
  }
});

test('a secret split in three at every pair of offsets, between other text, never appears whole', () => {
  const line = `a ${secret} b ${longer} c`;
  const whole = redactCredentialSecrets(line);
  for (let first = 0; first <= line.length; first++) {
    for (let second = first; second <= line.length; second++) {
      const output = stream([line.slice(0, first), line.slice(first, second), line.slice(second)]);
      assert.equal(output, whole, `cuts at ${first} and ${second}`);
    }
  }
});

test('one character at a time: the same result, and ordinary text passes without waiting', () => {
  assert.equal(stream([...text]), redactCredentialSecrets(text));
  const redactor = new StreamRedactor();
  assert.equal(redactor.push('plain words\n'), 'plain words\n');
  assert.equal(redactor.push(`half ${secret.slice(0, 10)}`), 'half ', 'only a possible secret start waits');
  assert.ok(redactor.holding);
  assert.equal(redactor.push(secret.slice(10)), '[REDACTED]');
  assert.equal(redactor.push(`x ${secret.slice(0, 4)}`), 'x ');
  assert.equal(redactor.flush(), secret.slice(0, 4), 'a held tail that ends the output is written');
  assert.ok(!redactor.holding);
});
