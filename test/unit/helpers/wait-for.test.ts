// The shared waiting helpers of test/helpers/wait-for.ts: the value that met the condition comes back, a condition
// never met ends in pollUntil's last value or in waitFor's timeout error naming what was awaited.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {pollUntil, waitFor} from '../../helpers/wait-for.ts';

test('waitFor resolves with the first truthy value the condition returns, sync or async', async () => {
  let tries = 0;
  assert.equal(
    await waitFor(() => (++tries >= 3 ? 'ready' : ''), {timeoutMs: 60_000, intervalMs: 1, what: 'x'}),
    'ready',
  );
  assert.equal(tries, 3);
  assert.deepEqual(await waitFor(async () => ({ok: true}), {timeoutMs: 60_000, what: 'x'}), {ok: true});
});

test('waitFor throws a message naming what it waited for once the time is up', async () => {
  await assert.rejects(
    waitFor(() => false, {timeoutMs: 0, what: 'the marker file'}),
    {
      message: 'Timed out after 0 ms waiting for the marker file.',
    },
  );
});

test('pollUntil returns the last value when the time is up, and a condition error is not swallowed', async () => {
  assert.equal(await pollUntil(() => 0, {timeoutMs: 0}), 0);
  await assert.rejects(
    pollUntil(
      () => {
        throw new Error('probe failed');
      },
      {timeoutMs: 60_000},
    ),
    /probe failed/,
  );
});
