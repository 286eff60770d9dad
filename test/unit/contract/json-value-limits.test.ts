// The JSON form of workflow input and output: converted once, as JSON.stringify would write it, with every value
// JSON would drop or cannot write rejected at its path.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {findJsonValueProblem, toJsonValue} from '../../../src/internal/json-value-limits.ts';

test('plain data converts to an equal value with its keys in order', () => {
  const value = {b: 1, a: [true, 'x', null, {c: 2.5}], z: {}};
  const converted = toJsonValue(value);
  assert.ok(converted.ok);
  assert.deepEqual(converted.value, value);
  assert.notEqual(converted.value, value);
  assert.equal(JSON.stringify(converted.value), JSON.stringify(value));
});

test('toJSON is applied once, undefined properties are left out and array holes become null, as in JSON', () => {
  const when = new Date('2026-01-02T03:04:05.000Z');
  const value = {when, gone: undefined, list: [undefined, Number.NaN, 1], boxed: new String('s'), kept: 'k'};
  const converted = toJsonValue(value);
  assert.ok(converted.ok);
  assert.equal(JSON.stringify(converted.value), JSON.stringify(value));
  assert.deepEqual(Object.keys(converted.value as object), ['when', 'list', 'boxed', 'kept']);
});

test('a __proto__ key stays an own property, as JSON.parse makes it', () => {
  const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
  const converted = toJsonValue(value);
  assert.ok(converted.ok);
  assert.equal(JSON.stringify(converted.value), '{"__proto__":{"polluted":true},"a":1}');
  assert.equal(Object.getPrototypeOf(converted.value), Object.prototype);
});

test('functions, symbols and BigInts are rejected with the path to the bad value', () => {
  assert.deepEqual(findJsonValueProblem({a: [1, () => 2]})?.path, 'a[1]');
  assert.match(findJsonValueProblem({a: [1, () => 2]})?.message ?? '', /function cannot be written as JSON/);
  assert.deepEqual(findJsonValueProblem({s: Symbol('x')})?.path, 's');
  assert.match(findJsonValueProblem({s: Symbol('x')})?.message ?? '', /symbol cannot be written as JSON/);
  assert.deepEqual(findJsonValueProblem({deep: {n: 1n}})?.path, 'deep.n');
});

test('a throwing toJSON or getter is an issue at its path, not an exception', () => {
  const throwing = {
    toJSON() {
      throw new Error('no json');
    },
  };
  const problem = findJsonValueProblem({items: [{value: throwing}]});
  assert.equal(problem?.path, 'items[0].value');
  assert.match(problem?.message ?? '', /toJSON\(\) method threw: no json/);
  const getter = {
    get bad() {
      throw new Error('no read');
    },
  };
  assert.match(findJsonValueProblem({getter})?.message ?? '', /threw: no read/);
  assert.equal(findJsonValueProblem({getter})?.path, 'getter');
});

test('a toJSON result is checked like any value', () => {
  const problem = findJsonValueProblem({value: {toJSON: () => ({inner: () => 1})}});
  assert.equal(problem?.path, 'value.inner');
});

test('cycles and too deep a nesting are rejected; shared values are not cycles', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.match(findJsonValueProblem({cyclic})?.message ?? '', /cycle/);
  const shared = {x: 1};
  assert.equal(findJsonValueProblem({a: shared, b: [shared, shared]}), undefined);
  let deep: unknown = 'leaf';
  for (let i = 0; i < 500; i++) deep = {child: deep};
  assert.match(findJsonValueProblem(deep)?.message ?? '', /nested more than 100 levels/);
});
