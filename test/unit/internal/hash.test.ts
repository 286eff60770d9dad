// sha256Hex hashes small inputs with @noble/hashes (so the cached paths never load node:crypto) and large ones with
// node:crypto: both must give node:crypto's digest for every length around the padding and size boundaries.
import assert from 'node:assert/strict';
import {createHash, randomBytes} from 'node:crypto';
import {test} from 'node:test';
import {sha256Hex, smallInputLimit} from '../../../src/internal/hash.ts';

const expected = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

test('the FIPS 180-4 examples hash to their published digests', () => {
  assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(
    sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
});

test('every length from 0 to 300 bytes, crossing the one- and two-block padding edges, matches node:crypto', () => {
  for (let length = 0; length <= 300; length++) {
    const bytes = randomBytes(length);
    assert.equal(sha256Hex(bytes), expected(bytes), `${length} bytes`);
  }
});

test('strings are hashed as their UTF-8 bytes, as node:crypto does', () => {
  for (const text of ['workflow.yaml', 'name: café\n', '/home/ü/项目/.stratos', '\u{1F680} emoji', 'a\0b']) {
    assert.equal(sha256Hex(text), expected(text), text);
  }
});

test('inputs at and beyond the small-input limit give the same digest on either side of it', () => {
  for (const length of [smallInputLimit - 1, smallInputLimit, smallInputLimit + 1, 3 * smallInputLimit]) {
    const bytes = randomBytes(length);
    assert.equal(sha256Hex(bytes), expected(bytes), `${length} bytes`);
  }
});
