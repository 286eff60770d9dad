import assert from 'node:assert/strict';
import {test} from 'node:test';
import {applyAfterTool, applyBeforeTool} from '../../../../src/agents/harness-kit/apply-tool-hooks.ts';
import {HookFailure, type ToolCall} from '../../../../src/agents/harness-kit/hooks.ts';

const call: ToolCall = {
  nativeName: 'mcp__notes__add',
  mcp: {server: 'notes', tool: 'add'},
  input: {text: 'hello'},
};

test('without a beforeTool hook the call runs unchanged', async () => {
  assert.deepEqual(await applyBeforeTool({}, call), {action: 'run', input: {text: 'hello'}, modified: false});
});

test('nothing and allow run the call unchanged', async () => {
  for (const decision of [undefined, {action: 'allow'} as const]) {
    const outcome = await applyBeforeTool({beforeTool: () => decision}, call);
    assert.deepEqual(outcome, {action: 'run', input: {text: 'hello'}, modified: false});
  }
});

test('deny stops the call with the feedback', async () => {
  const outcome = await applyBeforeTool(
    {beforeTool: async () => ({action: 'deny', feedback: 'not now'})},
    call,
  );
  assert.deepEqual(outcome, {action: 'deny', feedback: 'not now'});
});

test('modify runs the call with a copy of the returned input', async () => {
  const input = {text: 'changed'};
  const outcome = await applyBeforeTool({beforeTool: () => ({action: 'modify', input})}, call);
  assert.deepEqual(outcome, {action: 'run', input: {text: 'changed'}, modified: true});
  assert.notEqual(outcome.action === 'run' ? outcome.input : undefined, input);
});

test('a decision with an unknown action runs the call unchanged', async () => {
  const outcome = await applyBeforeTool({beforeTool: () => ({action: 'skip'}) as never}, call);
  assert.deepEqual(outcome, {action: 'run', input: {text: 'hello'}, modified: false});
});

test('the hook sees the call as given', async () => {
  let seen: ToolCall | undefined;
  await applyBeforeTool(
    {
      beforeTool: (given) => {
        seen = given;
        return undefined;
      },
    },
    call,
  );
  assert.deepEqual(seen, call);
});

test('a throwing beforeTool hook is a failure, never a throw', async () => {
  const cause = new Error('boom');
  const outcome = await applyBeforeTool(
    {
      beforeTool: () => {
        throw cause;
      },
    },
    call,
  );
  assert.equal(outcome.action, 'fail');
  const failure = outcome.action === 'fail' ? outcome.failure : undefined;
  assert.ok(failure instanceof HookFailure);
  assert.equal(failure.hook, 'beforeTool');
  assert.equal(failure.cause, cause);
});

test('without an afterTool hook, with nothing and with keep the result is kept', async () => {
  assert.deepEqual(await applyAfterTool({}, call, 1), {action: 'keep'});
  assert.deepEqual(await applyAfterTool({afterTool: () => undefined}, call, 1), {action: 'keep'});
  assert.deepEqual(await applyAfterTool({afterTool: async () => ({action: 'keep'})}, call, 1), {
    action: 'keep',
  });
});

test('withhold replaces the result with the feedback; the hook sees the call and its result', async () => {
  let seen: unknown;
  const outcome = await applyAfterTool(
    {
      afterTool: (given) => {
        seen = given;
        return {action: 'withhold', feedback: 'secret'};
      },
    },
    call,
    {content: []},
  );
  assert.deepEqual(outcome, {action: 'withhold', feedback: 'secret'});
  assert.deepEqual(seen, {...call, result: {content: []}});
});

test('a rejecting afterTool hook is a failure', async () => {
  const outcome = await applyAfterTool({afterTool: () => Promise.reject(new Error('late'))}, call, 1);
  assert.equal(outcome.action, 'fail');
  assert.equal(outcome.action === 'fail' ? outcome.failure.hook : '', 'afterTool');
});
