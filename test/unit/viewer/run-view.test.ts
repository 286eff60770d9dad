// buildRunView: the runs page's model of events.jsonl records. Nesting and sibling order follow the records,
// a span without an end has no end, an end without a start is placed by its duration, console lines and point
// events land on their span, and malformed parent links still show every span.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {EventRecord} from '../../../src/telemetry/artifacts/run-record.ts';
import {buildRunTree, totalUsage} from '../../../src/telemetry/artifacts/run-store.ts';
import {buildRunView, usageOfView} from '../../../src/viewer/run-view.ts';

let seq = 0;
function record(
  type: EventRecord['type'],
  spanId: string,
  ms: number,
  extra: Partial<EventRecord> = {},
): EventRecord {
  return {
    time: new Date(Date.UTC(2026, 11, 1) + ms).toISOString(),
    seq: seq++,
    type,
    rootExecutionId: 'root',
    executionId: 'root',
    workflow: 'w',
    traceId: 't',
    spanId,
    ...extra,
  };
}

const t0 = Date.UTC(2026, 11, 1);

test('spans nest as recorded, siblings in start order, with times, status, error, logs and events', () => {
  const view = buildRunView([
    record('workflow.start', 'w1', 0),
    record('operation.start', 'a', 10, {parentSpanId: 'w1', kind: 'agent.execute', name: 'agent x'}),
    record('operation.start', 'm', 12, {parentSpanId: 'a', kind: 'agent.model', name: 'chat'}),
    record('operation.start', 'c', 11, {parentSpanId: 'w1', kind: 'mcp.call', name: 'tools/call echo'}),
    record('console', 'c', 13, {level: 'warn', message: '<b>loud</b>'}),
    record('operation.end', 'c', 20, {
      parentSpanId: 'w1',
      kind: 'mcp.call',
      name: 'tools/call echo',
      status: 'error',
      durationMs: 9,
      error: {code: 'STRATOS_MCP_TOOL_ERROR', message: 'no', causes: [{message: 'because'}]},
      attributes: {'mcp.tool': 'echo'},
    }),
    record('event', 'a', 30, {name: 'agent.usage', attributes: {'gen_ai.usage.input_tokens': 3}}),
    record('operation.end', 'a', 40, {
      parentSpanId: 'w1',
      kind: 'agent.execute',
      status: 'ok',
      durationMs: 30,
    }),
    record('workflow.end', 'w1', 50, {status: 'ok', durationMs: 50}),
  ]);
  assert.deepEqual(
    view.spans.map((s) => [s.depth, s.name, s.status, s.descendants]),
    [
      [0, 'workflow w', 'ok', 3],
      [1, 'agent x', 'ok', 1],
      [2, 'chat', undefined, 0],
      [1, 'tools/call echo', 'error', 0],
    ],
  );
  assert.equal(view.startMs, t0);
  assert.equal(view.endMs, t0 + 50);
  const [, agent, model, call] = view.spans;
  assert.equal(model!.start, t0 + 12);
  assert.equal(model!.end, undefined, 'no end recorded: no end invented');
  assert.deepEqual(call!.error!.causes, [{message: 'because'}]);
  assert.deepEqual(call!.logs, [{time: t0 + 13, level: 'warn', message: '<b>loud</b>'}]);
  assert.equal(call!.attributes['mcp.tool'], 'echo');
  assert.deepEqual(
    agent!.events.map((e) => e.name),
    ['agent.usage'],
  );
});

test('an end without a start is placed by its duration; unreachable spans still appear', () => {
  const view = buildRunView([
    record('operation.end', 'x', 100, {kind: 'decision', name: 'decide', status: 'ok', durationMs: 40}),
    record('operation.start', 'p', 0, {parentSpanId: 'q', kind: 'k', name: 'p'}),
    record('operation.start', 'q', 0, {parentSpanId: 'p', kind: 'k', name: 'q'}),
  ]);
  const decide = view.spans.find((s) => s.name === 'decide')!;
  assert.equal(decide.start, t0 + 60);
  assert.equal(view.startMs, t0);
  assert.deepEqual(view.spans.map((s) => s.name).sort(), ['decide', 'p', 'q']);
});

test('usage is summed at the innermost level that reported it, exactly as runs show sums it', () => {
  const usage = (input: number, output: number) => ({
    'gen_ai.usage.input_tokens': input,
    'gen_ai.usage.output_tokens': output,
  });
  const events = [
    record('workflow.start', 'w', 0),
    record('operation.start', 'a1', 1, {parentSpanId: 'w', kind: 'agent.execute', name: 'agent a'}),
    record('operation.start', 'm1', 2, {parentSpanId: 'a1', kind: 'agent.model', name: 'chat'}),
    record('operation.end', 'm1', 3, {
      parentSpanId: 'a1',
      kind: 'agent.model',
      status: 'ok',
      attributes: usage(10, 5),
    }),
    record('operation.end', 'a1', 4, {
      parentSpanId: 'w',
      kind: 'agent.execute',
      status: 'ok',
      attributes: usage(99, 99),
    }),
    record('operation.start', 'a2', 5, {parentSpanId: 'w', kind: 'agent.execute', name: 'agent b'}),
    record('event', 'a2', 6, {name: 'agent.usage', attributes: usage(20, 10)}),
    record('operation.end', 'a2', 7, {parentSpanId: 'w', kind: 'agent.execute', status: 'ok'}),
    record('operation.start', 'd', 8, {parentSpanId: 'w', kind: 'decision', name: 'decide'}),
    record('operation.end', 'd', 9, {
      parentSpanId: 'w',
      kind: 'decision',
      status: 'ok',
      attributes: {'gen_ai.usage.input_tokens': 7},
    }),
    record('workflow.end', 'w', 10, {status: 'ok'}),
  ];
  const expected = totalUsage(buildRunTree(events));
  assert.deepEqual(expected, {inputTokens: 37, outputTokens: 15});
  assert.deepEqual(usageOfView(buildRunView(events)), expected);
  assert.deepEqual(usageOfView(buildRunView(events.slice(0, 2))), {}, 'nothing reported: nothing invented');
});
