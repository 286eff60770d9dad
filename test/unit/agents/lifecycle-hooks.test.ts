// The lifecycle hooks around one execute, without a harness: their order, and what a throwing hook becomes.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {runWithLifecycleHooks} from '../../../src/agents/lifecycle-hooks.ts';
import {AgentRunError} from '../../../src/errors/index.ts';

const event = {agent: 'coder', harness: 'claude-code', prompt: 'Fix the bug.'};

test('onStart, the turn, then onComplete with its output', async () => {
  const calls: string[] = [];
  const output = await runWithLifecycleHooks(
    {
      onStart: (started) => void calls.push(`start ${started.prompt}`),
      onComplete: (completed) => void calls.push(`complete ${String(completed.output)}`),
      onError: () => void calls.push('error'),
    },
    event,
    () => 'claude-code',
    async () => {
      calls.push('turn');
      return 'fixed';
    },
  );
  assert.equal(output, 'fixed');
  assert.deepEqual(calls, ['start Fix the bug.', 'turn', 'complete fixed']);
});

test('a throwing hook fails the execute with STRATOS_AGENT_HOOK_FAILED, naming the current harness', async () => {
  const reported: unknown[] = [];
  await assert.rejects(
    runWithLifecycleHooks(
      {
        onStart: () => {
          throw new Error('no ticket');
        },
        onError: ({error}) => void reported.push(error),
      },
      event,
      () => 'codex',
      async () => 'never',
    ),
    (error: unknown) =>
      error instanceof AgentRunError &&
      error.code === 'STRATOS_AGENT_HOOK_FAILED' &&
      error.message === "Agent 'coder' (codex): the onStart hook threw: no ticket" &&
      reported[0] === error,
  );
});

test('a failing turn reaches onError unchanged; a throwing onError keeps both failures', async () => {
  const failure = new Error('turn failed');
  await assert.rejects(
    runWithLifecycleHooks(
      {onError: () => {}},
      event,
      () => 'codex',
      () => Promise.reject(failure),
    ),
    (error: unknown) => error === failure,
  );
  await assert.rejects(
    runWithLifecycleHooks(
      {
        onError: () => {
          throw new Error('logger down');
        },
      },
      event,
      () => 'codex',
      () => Promise.reject(failure),
    ),
    (error: unknown) =>
      error instanceof AgentRunError &&
      error.code === 'STRATOS_AGENT_HOOK_FAILED' &&
      error.cause instanceof AggregateError &&
      error.cause.errors[0] === failure,
  );
});
