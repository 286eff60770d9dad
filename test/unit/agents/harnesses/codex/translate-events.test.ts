// Codex's event translation against thread events recorded from the real binary (an MCP call to the test counter
// server, a command, a text answer; scripted by test/servers/models/openai-responses.ts):
// test/fixtures/harnesses/codex/mcp-and-command-turn.json.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import type {ThreadEvent} from '@openai/codex-sdk';
import {
  parseStructured,
  toMcpStartupError,
  translateThreadEvent,
} from '../../../../../src/agents/harnesses/codex/translate-events.ts';

const recorded = JSON.parse(
  readFileSync(
    new URL('../../../../fixtures/harnesses/codex/mcp-and-command-turn.json', import.meta.url),
    'utf8',
  ),
) as ThreadEvent[];

const echo = {nativeName: 'mcp__counter__echo', mcp: {server: 'counter', tool: 'echo'}, input: {text: 'hi'}};
const shell = {nativeName: 'shell', canonicalName: 'bash', input: {command: "/bin/bash -lc 'echo hi'"}};

test('the recorded turn: tool calls from start to end, the text, the turn usage', () => {
  const translated = recorded.map(translateThreadEvent);
  assert.deepEqual(
    translated.flatMap((t) => t.events),
    [
      {type: 'tool.start', id: 'item_1', call: echo},
      {
        type: 'tool.end',
        id: 'item_1',
        call: echo,
        ok: true,
        result: {content: [{type: 'text', text: 'hi'}], structuredContent: {text: 'hi'}},
      },
      {type: 'tool.start', id: 'item_2', call: shell},
      {type: 'tool.end', id: 'item_2', call: shell, ok: true, result: {output: 'hi\n', exitCode: 0}},
      {type: 'text', text: 'The server echoed hi.'},
      {
        type: 'usage',
        inputTokens: 30,
        outputTokens: 15,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        reasoningTokens: 0,
      },
    ],
  );
  assert.deepEqual(
    translated.flatMap((t) => (t.text === undefined ? [] : [t.text])),
    ['The server echoed hi.'],
  );
  assert.equal(
    translated.some((t) => t.failure !== undefined),
    false,
  );
});

test('a failed MCP call, a failed command and a failed turn', () => {
  const mcp = translateThreadEvent({
    type: 'item.completed',
    item: {
      id: 'i',
      type: 'mcp_tool_call',
      server: 'counter',
      tool: 'echo',
      arguments: {},
      error: {message: 'boom'},
      status: 'failed',
    },
  } as ThreadEvent);
  assert.deepEqual(mcp.events, [
    {
      type: 'tool.end',
      id: 'i',
      call: {nativeName: 'mcp__counter__echo', mcp: {server: 'counter', tool: 'echo'}, input: {}},
      ok: false,
      error: 'boom',
    },
  ]);
  const command = translateThreadEvent({
    type: 'item.completed',
    item: {
      id: 'c',
      type: 'command_execution',
      command: 'false',
      aggregated_output: '',
      exit_code: 1,
      status: 'failed',
    },
  });
  assert.deepEqual(command.events[0], {
    type: 'tool.end',
    id: 'c',
    call: {nativeName: 'shell', canonicalName: 'bash', input: {command: 'false'}},
    ok: false,
    result: {output: '', exitCode: 1},
    error: 'The command exited with code 1.',
  });
  assert.deepEqual(translateThreadEvent({type: 'turn.failed', error: {message: 'quota'}}), {
    events: [],
    failure: 'quota',
  });
  assert.deepEqual(translateThreadEvent({type: 'error', message: 'stream lost'}), {
    events: [],
    failure: 'stream lost',
  });
});

test('structured output is the JSON of the answer; prose is no structured result', () => {
  assert.deepEqual(parseStructured('{"a":1}'), {text: '{"a":1}', structured: {value: {a: 1}}});
  assert.deepEqual(parseStructured('no json'), {text: 'no json'});
});

test("a required MCP server that did not start becomes STRATOS_MCP_CONNECT_FAILED with the server's name", () => {
  const error = toMcpStartupError(
    new Error('thread failed\nrequired MCP servers failed to initialize: counter: timed out handshaking\n'),
    'writer',
  );
  assert.equal(error?.code, 'STRATOS_MCP_CONNECT_FAILED');
  assert.deepEqual(error?.details, {agent: 'writer', harness: 'codex', server: 'counter'});
  assert.match(
    error?.message ?? '',
    /could not start its MCP server 'counter': counter: timed out handshaking\./,
  );
  assert.equal(toMcpStartupError(new Error('other'), 'writer'), undefined);
});
