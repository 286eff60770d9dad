// Claude Code's event translation against native messages recorded from the real binary (a Bash call and a text
// answer, scripted by test/servers/models/anthropic.ts): test/fixtures/harnesses/claude-code/bash-turn.json.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import type {SDKMessage, SDKResultMessage} from '@anthropic-ai/claude-agent-sdk';
import type {AgentEvent} from '../../../../../src/agents/harness-kit/hooks.ts';
import {
  findMcpStartupFailure,
  readAssistantTexts,
  type StreamedResponse,
  tokenCounts,
  translateResult,
  translateStreamEvent,
} from '../../../../../src/agents/harnesses/claude-code/translate-events.ts';
import {StratosError} from '../../../../../src/errors/index.ts';

const recorded = JSON.parse(
  readFileSync(new URL('../../../../fixtures/harnesses/claude-code/bash-turn.json', import.meta.url), 'utf8'),
) as SDKMessage[];

/** The stream events and assistant texts of the recorded turn, translated in order. */
function replay(messages: readonly SDKMessage[]): AgentEvent[] {
  const events: AgentEvent[] = [];
  let response: StreamedResponse | undefined;
  for (const message of messages) {
    if (message.type === 'stream_event' && message.parent_tool_use_id === null) {
      const translated = translateStreamEvent(message.event, response);
      response = translated.response;
      if (translated.event !== undefined) events.push(translated.event);
    }
    if (message.type === 'assistant')
      for (const text of readAssistantTexts(message)) events.push({type: 'text', text});
  }
  return events;
}

test('each recorded model call ends with its model and the usage of message_start and message_delta', () => {
  assert.deepEqual(replay(recorded), [
    {type: 'text', text: 'Running it.'},
    {
      type: 'model.end',
      model: 'claude-opus-5-5',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    },
    {type: 'text', text: 'The command printed hi.'},
    {
      type: 'model.end',
      model: 'claude-opus-5-5',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    },
  ]);
});

test('a message_delta count replaces the start count; a count it leaves out keeps its start value', () => {
  const start = translateStreamEvent(
    {
      type: 'message_start',
      message: {model: 'm', usage: {input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 7}},
    } as never,
    undefined,
  );
  const delta = translateStreamEvent(
    {type: 'message_delta', usage: {output_tokens: 9}} as never,
    start.response,
  );
  const stop = translateStreamEvent({type: 'message_stop'} as never, delta.response);
  assert.equal(stop.response, undefined);
  assert.deepEqual(stop.event, {
    type: 'model.end',
    model: 'm',
    inputTokens: 10,
    outputTokens: 9,
    cacheReadInputTokens: 7,
  });
});

test('the recorded result is the turn: its text and usage', () => {
  const result = recorded.at(-1) as SDKResultMessage;
  assert.deepEqual(translateResult(result, 'any'), {
    usage: {
      inputTokens: 20,
      outputTokens: 10,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      nativeCostUsd: 0.00028000000000000003,
    },
    outcome: {ok: true, result: {text: 'The command printed hi.'}},
  });
});

test('a structured result, a result for another prompt and a failed result', () => {
  const result = recorded.at(-1) as SDKResultMessage;
  const structured = translateResult({...result, structured_output: {n: 1}} as SDKResultMessage, 'p');
  assert.deepEqual(structured?.outcome, {
    ok: true,
    result: {
      text: 'The command printed hi.',
      structured: {value: {n: 1}},
    },
  });
  assert.equal(
    translateResult({...result, user_message_uuids: ['other']} as SDKResultMessage, 'p'),
    undefined,
  );
  const failed = translateResult(
    {...result, subtype: 'error_max_turns', is_error: true, errors: ['too many turns']} as SDKResultMessage,
    'p',
  );
  assert.deepEqual(failed?.outcome, {ok: false, reason: 'error_max_turns: too many turns'});
  // The binary's own cap (maxBudgetUsd), as the real binary reports it.
  const capped = translateResult(
    {
      ...result,
      subtype: 'error_max_budget_usd',
      is_error: true,
      errors: ['Reached maximum budget ($0.005)'],
    } as SDKResultMessage,
    'p',
  );
  assert.deepEqual(capped?.outcome, {
    ok: false,
    reason: 'error_max_budget_usd: Reached maximum budget ($0.005)',
    budgetExceeded: true,
  });
  const errorText = translateResult(
    {...result, is_error: true, result: 'Not logged in'} as SDKResultMessage,
    'p',
  );
  assert.deepEqual(errorText?.outcome, {ok: false, reason: 'Not logged in'});
});

test('a selected MCP server that failed to start stops the session with STRATOS_MCP_CONNECT_FAILED', () => {
  const statuses = [
    {name: 'notes', status: 'failed'},
    {name: 'other', status: 'failed'},
    {name: 'files', status: 'connected'},
  ];
  assert.equal(findMcpStartupFailure('writer', statuses, ['files']), undefined);
  const error = findMcpStartupFailure('writer', statuses, ['notes', 'files']);
  assert.ok(error instanceof StratosError);
  assert.equal(error.code, 'STRATOS_MCP_CONNECT_FAILED');
  assert.match(error.message, /Agent 'writer' \(claude-code\) could not start its MCP server 'notes'/);
  assert.deepEqual(error.details, {agent: 'writer', harness: 'claude-code', servers: ['notes']});
});

test('token counts: reported counts only, input including cache reads and writes', () => {
  assert.deepEqual(tokenCounts({}), {});
  assert.deepEqual(
    tokenCounts({input_tokens: 1, cache_read_input_tokens: 2, cache_creation_input_tokens: 3}),
    {
      inputTokens: 6,
      cacheReadInputTokens: 2,
      cacheCreationInputTokens: 3,
    },
  );
  assert.deepEqual(tokenCounts({output_tokens: null, input_tokens: null}), {});
});
