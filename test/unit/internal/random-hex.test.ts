// randomHex reads the operating system's random source in blocks and hands every byte out once.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {randomHex} from '../../../src/internal/random-hex.ts';

test('gives 2n lowercase hex digits for n bytes, also across block refills and for requests over a block', () => {
  for (const bytes of [1, 6, 8, 16, 255, 256, 257, 1000]) {
    for (let i = 0; i < 40; i++) assert.match(randomHex(bytes), new RegExp(`^[0-9a-f]{${2 * bytes}}$`));
  }
});

test('ids do not repeat and their digits are spread over all sixteen values', () => {
  const ids = new Set<string>();
  const counts = new Map<string, number>();
  for (let i = 0; i < 5000; i++) {
    const id = randomHex(8);
    ids.add(id);
    for (const digit of id) counts.set(digit, (counts.get(digit) ?? 0) + 1);
  }
  assert.equal(ids.size, 5000);
  assert.equal(counts.size, 16);
  // 80,000 digits: each of the 16 values is expected 5,000 times; a broken source (zeros, a repeated block) fails.
  for (const [digit, count] of counts) assert.ok(count > 4000 && count < 6000, `${digit}: ${count}`);
});
