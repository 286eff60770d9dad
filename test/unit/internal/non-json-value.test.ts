// findNonJsonValue: the one check of "is this JSON data" for step() results and decision state.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {findNonJsonValue} from '../../../src/internal/non-json-value.ts';

const skip = {skipUndefinedProperties: true};
const refuse = {skipUndefinedProperties: false};

test('JSON data passes', () => {
  assert.equal(findNonJsonValue({a: [1, 'x', true, null, {b: 2.5}]}, 'v', refuse), undefined);
});

test('each kind of non-JSON value is named at its path', () => {
  assert.equal(findNonJsonValue({a: [1, Number.NaN]}, 'v', skip), 'v.a[1] is NaN');
  assert.equal(findNonJsonValue({f: () => 1}, 'v', skip), 'v.f is a function');
  assert.equal(findNonJsonValue({d: new Date(0)}, 'v', skip), 'v.d is a Date');
  assert.equal(findNonJsonValue([10n], 'v', skip), 'v[0] is a bigint');
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assert.equal(findNonJsonValue(loop, 'v', skip), 'v.self refers back to itself');
});

test('an undefined property is dropped or refused as asked; a shared (not circular) object is fine', () => {
  assert.equal(findNonJsonValue({a: undefined}, 'v', skip), undefined);
  assert.equal(findNonJsonValue({a: undefined}, 'v', refuse), 'v.a is undefined');
  const shared = {x: 1};
  assert.equal(findNonJsonValue({a: shared, b: shared}, 'v', refuse), undefined);
});
