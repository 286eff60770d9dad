import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {EventRecord} from '../../../src/telemetry/artifacts/run-record.ts';
import {buildRunTree, totalUsage} from '../../../src/telemetry/artifacts/run-store.ts';

let seq = 0;
const record = (fields: Partial<EventRecord> & Pick<EventRecord, 'type' | 'spanId'>): EventRecord => ({
  time: '2026-12-01T00:00:00.000Z',
  seq: seq++,
  rootExecutionId: 'r',
  executionId: 'e',
  workflow: 'w',
  traceId: 't',
  ...fields,
});

test('the tree keeps missing boundaries missing and counts usage at the innermost level', () => {
  const tree = buildRunTree([
    record({type: 'workflow.start', spanId: 'w1'}),
    record({type: 'operation.start', spanId: 'a1', parentSpanId: 'w1', kind: 'agent.execute', name: 'agent'}),
    record({
      type: 'operation.end',
      spanId: 'm1',
      parentSpanId: 'a1',
      kind: 'agent.model',
      name: 'chat',
      status: 'ok',
      attributes: {'gen_ai.usage.input_tokens': 5},
    }),
    record({
      type: 'operation.end',
      spanId: 'm2',
      parentSpanId: 'a1',
      kind: 'agent.model',
      name: 'chat',
      status: 'ok',
      attributes: {'gen_ai.usage.output_tokens': 7},
    }),
    record({
      type: 'operation.end',
      spanId: 'a1',
      parentSpanId: 'w1',
      kind: 'agent.execute',
      name: 'agent',
      status: 'ok',
      attributes: {'gen_ai.usage.input_tokens': 99},
    }),
    record({type: 'event', spanId: 'w1', name: 'tool.completed'}),
    record({type: 'console', spanId: 'w1', level: 'log', message: 'hi'}),
    record({
      type: 'operation.start',
      spanId: 'o1',
      parentSpanId: 'w1',
      kind: 'mcp.call',
      name: 'never ended',
    }),
  ]);
  assert.equal(tree.length, 1);
  const [workflow] = tree;
  assert.equal(workflow!.status, undefined, 'no workflow.end: no status');
  assert.equal(workflow!.consoleMessages, 1);
  assert.deepEqual(
    workflow!.children.map((c) => [c.kind, c.name, c.status]),
    [
      ['agent.execute', 'agent', 'ok'],
      ['mcp.call', 'never ended', undefined],
      ['event', 'tool.completed', undefined],
    ],
  );
  assert.deepEqual(
    workflow!.children[0]!.children.map((c) => c.spanId),
    ['m1', 'm2'],
    'an end without a start still appears',
  );
  assert.deepEqual(totalUsage(tree), {inputTokens: 5, outputTokens: 7});
  assert.deepEqual(totalUsage(buildRunTree([record({type: 'workflow.end', spanId: 'x', status: 'ok'})])), {});
});

test('a usage event without timed boundaries (Codex turn usage) carries its usage into the tree and the total', () => {
  const tree = buildRunTree([
    record({type: 'workflow.start', spanId: 'w1'}),
    record({type: 'operation.start', spanId: 'a1', parentSpanId: 'w1', kind: 'agent.execute', name: 'agent'}),
    record({
      type: 'event',
      spanId: 'a1',
      name: 'agent.usage',
      attributes: {'gen_ai.usage.input_tokens': 20, 'gen_ai.usage.output_tokens': 10},
    }),
    record({type: 'event', spanId: 'a1', name: 'agent.tool'}),
    record({type: 'operation.end', spanId: 'a1', parentSpanId: 'w1', kind: 'agent.execute', status: 'ok'}),
  ]);
  const [usage, tool] = tree[0]!.children[0]!.children;
  assert.deepEqual(usage!.usage, {inputTokens: 20, outputTokens: 10});
  assert.equal(tool!.usage, undefined);
  assert.deepEqual(totalUsage(tree), {inputTokens: 20, outputTokens: 10});
});
