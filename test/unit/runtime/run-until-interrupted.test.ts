// runUntilInterrupted: the body and the interruption race; the first to settle wins, and the interruption is taken
// down as soon as the body settles.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {runUntilInterrupted} from '../../../src/runtime/run-until-interrupted.ts';

test('a body that settles first resolves the race and disarms the interruption', async () => {
  let disarmed = 0;
  const value = await runUntilInterrupted(
    async () => 'done',
    () => () => disarmed++,
  );
  assert.equal(value, 'done');
  assert.equal(disarmed, 1);
});

test('an interruption that rejects first wins; the body settling later changes nothing', async () => {
  let finish: (value: string) => void = () => {};
  const body = new Promise<string>((resolve) => {
    finish = resolve;
  });
  const raced = runUntilInterrupted(
    () => body,
    (reject) => {
      queueMicrotask(() => reject(new Error('interrupted')));
      return () => {};
    },
  );
  await assert.rejects(raced, /interrupted/);
  finish('late');
  await body;
});

test("the body's rejection passes through describeRejection; a synchronous throw rejects as it is", async () => {
  const described = runUntilInterrupted(
    async () => {
      throw new Error('inner');
    },
    () => () => {},
    (error) => new Error(`outer: ${(error as Error).message}`),
  );
  await assert.rejects(described, /^Error: outer: inner$/);
  let disarmed = false;
  const thrown = runUntilInterrupted(
    () => {
      throw new Error('at once');
    },
    () => () => {
      disarmed = true;
    },
    () => new Error('never'),
  );
  await assert.rejects(thrown, /at once/);
  assert.ok(disarmed);
});
