// OpenCode's event translation against events and a prompt response recorded from the real binary (one call of the
// test counter server's echo tool, then a text answer; scripted by test/servers/models/openai-chat.ts):
// test/fixtures/harnesses/opencode/mcp-turn.json. The subscription is fed the recorded stream through the small
// client interface it reads (`event.subscribe`).
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import type {AgentEvent} from '../../../../../src/agents/harness-kit/hooks.ts';
import {
  describeOpenCodeTool,
  type OpenCodePromptData,
  toTokenCounts,
  translatePromptResult,
  translateToolPart,
} from '../../../../../src/agents/harnesses/opencode/translate-events.ts';
import {OpenCodeTurnEvents} from '../../../../../src/agents/harnesses/opencode/turn-events.ts';

const recorded = JSON.parse(
  readFileSync(new URL('../../../../fixtures/harnesses/opencode/mcp-turn.json', import.meta.url), 'utf8'),
) as {sessionId: string; events: unknown[]; response: OpenCodePromptData};

const echo = {nativeName: 'mcp__counter__echo', mcp: {server: 'counter', tool: 'echo'}, input: {text: 'hi'}};

test('the recorded stream: a model call with its usage and model, and the MCP tool call with its times', async () => {
  const events = new OpenCodeTurnEvents(recorded.sessionId, ['counter']);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const observed: AgentEvent[] = [];
  events.startTurn((event) => observed.push(event));
  await events.open({
    event: {
      subscribe: async () => ({
        stream: (async function* () {
          yield* recorded.events;
          await released;
        })(),
      }),
    },
  });
  await new Promise((resolve) => setImmediate(resolve));
  release();
  await events.finishTurn(false);
  events.close();
  assert.deepEqual(observed, [
    {type: 'model.start', at: 1796309085246},
    {type: 'tool.start', id: 'call_3', call: echo, at: 1796309085408},
    {type: 'tool.end', id: 'call_3', call: echo, ok: true, result: 'hi', at: 1796309088872},
    {
      type: 'model.end',
      at: 1796309088923,
      model: 'gpt-test',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    },
  ]);
  assert.deepEqual(events.turnUsage(), {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
  });
});

test('the recorded response is the answer; the streamed usage wins over the last message of the response', () => {
  const streamed = {inputTokens: 20, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0};
  assert.deepEqual(translatePromptResult(recorded.response, streamed), {
    usage: streamed,
    outcome: {kind: 'answer', result: {text: 'The server echoed hi.'}},
  });
  assert.deepEqual(translatePromptResult(recorded.response, undefined).usage, {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
  });
});

test('a structured answer, prose where a schema asked for a value, and an error', () => {
  const {info, parts} = recorded.response;
  const structured = translatePromptResult({info: {...info, structured: {n: 1}}, parts}, undefined);
  assert.deepEqual(structured.outcome, {
    kind: 'answer',
    result: {text: 'The server echoed hi.', structured: {value: {n: 1}}},
  });
  const prose = translatePromptResult(
    {info: {...info, error: {name: 'StructuredOutputError'}}, parts},
    undefined,
  );
  assert.deepEqual(prose.outcome, {kind: 'unstructured', result: {text: 'The server echoed hi.'}});
  const error = {name: 'APIError', data: {statusCode: 500}};
  assert.deepEqual(translatePromptResult({info: {...info, error}, parts}, undefined).outcome, {
    kind: 'error',
    error,
  });
});

test('a failing tool call ends with its error; an ended call reports nothing more', () => {
  const part = {
    type: 'tool',
    tool: 'bash',
    callID: 'c',
    state: {status: 'error', input: {command: 'false'}, error: 'exit 1', time: {start: 1, end: 2}},
  };
  const first = translateToolPart(part, undefined, [], 5);
  const bash = {nativeName: 'bash', canonicalName: 'bash', input: {command: 'false'}};
  assert.deepEqual(first, {
    events: [
      {type: 'tool.start', id: 'c', call: bash, at: 1},
      {type: 'tool.end', id: 'c', call: bash, ok: false, at: 2, error: 'exit 1'},
    ],
    progress: 'ended',
  });
  assert.deepEqual(translateToolPart(part, 'ended', [], 5), {events: [], progress: 'ended'});
});

test('MCP tool names: the longest selected server prefix wins', () => {
  assert.deepEqual(describeOpenCodeTool('my_server_add', {}, ['my_server', 'my']).mcp, {
    server: 'my_server',
    tool: 'add',
  });
  assert.equal(describeOpenCodeTool('read', {}, ['my']).canonicalName, 'read');
  assert.deepEqual(toTokenCounts(undefined), {});
});
