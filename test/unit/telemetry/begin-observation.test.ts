// Observations whose start and end are reported separately (`telemetry.begin`): parenting, outcomes, one settle,
// and `incomplete` when the owner (the parent operation or the invocation) ends first.
import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {silentTelemetry} from '../../../src/telemetry/index.ts';
import {
  closeInvocationTelemetry,
  openInvocationTelemetry,
} from '../../../src/telemetry/open-invocation-telemetry.ts';

let base: string;
before(async () => {
  base = await mkdtemp(join(tmpdir(), 'stratos-begin-'));
});
after(() => rm(base, {recursive: true, force: true}));

interface Line {
  type: string;
  spanId: string;
  parentSpanId?: string;
  kind?: string;
  name?: string;
  status?: string;
  attributes?: Record<string, unknown>;
  error?: {code?: string; type?: string; message: string};
}

async function record(fn: (telemetry: Awaited<ReturnType<typeof openInvocationTelemetry>>) => Promise<void>) {
  const controller = new AbortController();
  const telemetry = await openInvocationTelemetry({
    executionId: `e${Math.random().toString(16).slice(2, 10)}`,
    startedAt: new Date(),
    workflow: {name: 'w', version: '1.0.0', directory: base},
    invocationDirectory: base,
    input: {},
    signal: controller.signal,
    stratosHome: base,
    env: {},
    resolveReferences: async (values) => values,
  });
  await telemetry.activate(() => fn(telemetry));
  const report = await closeInvocationTelemetry(telemetry, {
    ok: true,
    output: {},
    cancelledFromOutside: false,
  });
  assert.deepEqual(report.diagnostics, []);
  const text = await readFile(join(report.runDirectory!, 'events.jsonl'), 'utf8');
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
  const end = (name: string) => lines.find((l) => l.type === 'operation.end' && l.name === name)!;
  const start = (name: string) => lines.find((l) => l.type === 'operation.start' && l.name === name)!;
  return {lines, start, end, workflowSpan: lines.find((l) => l.type === 'workflow.start')!.spanId};
}

test('a begun observation is parented under the active operation and records start and end', async () => {
  const {start, end} = await record(async (telemetry) => {
    await telemetry.operation({kind: 'agent.execute', name: 'agent a'}, async (scope) => {
      const viaTelemetry = telemetry.begin({kind: 'agent.tool', name: 'execute_tool t'});
      const viaScope = scope.begin({
        kind: 'agent.model',
        name: 'chat m',
        attributes: {'gen_ai.request.model': 'm'},
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      viaScope.end({'gen_ai.usage.input_tokens': 10});
      viaScope.end({'gen_ai.usage.input_tokens': 99}); // the first settle counts
      viaTelemetry.fail(Object.assign(new Error('the tool broke'), {name: 'ToolFailed'}));
      viaTelemetry.end();
    });
  });
  const agent = start('agent a');
  assert.equal(start('execute_tool t').parentSpanId, agent.spanId);
  assert.equal(start('chat m').parentSpanId, agent.spanId);
  assert.equal(start('chat m').attributes?.['gen_ai.operation.name'], 'chat');

  const chat = end('chat m');
  assert.equal(chat.status, 'ok');
  assert.equal(chat.kind, 'agent.model');
  assert.equal(chat.attributes?.['gen_ai.usage.input_tokens'], 10);
  assert.equal(
    chat.attributes?.['gen_ai.usage.output_tokens'],
    undefined,
    'an unreported count stays absent',
  );
  assert.ok((chat as {durationMs?: number} & Line).durationMs! >= 4);

  const tool = end('execute_tool t');
  assert.equal(tool.status, 'error');
  assert.equal(tool.attributes?.['error.type'], 'ToolFailed');
  assert.equal(tool.error?.message, 'the tool broke');
});

test('cancel records a cancellation, not an error', async () => {
  const {end} = await record(async (telemetry) => {
    telemetry.begin({kind: 'agent.tool', name: 'stopped'}).cancel({'stratos.tool.decision': 'deny'});
  });
  assert.equal(end('stopped').status, 'cancelled');
  assert.equal(end('stopped').attributes?.['error.type'], undefined);
  assert.equal(end('stopped').attributes?.['stratos.tool.decision'], 'deny');
});

test('an observation still open when its parent operation ends closes as incomplete; later settles do nothing', async () => {
  let late: ReturnType<typeof silentTelemetry.begin> | undefined;
  const {lines, end} = await record(async (telemetry) => {
    await telemetry.operation({kind: 'agent.execute', name: 'agent a'}, async (scope) => {
      late = scope.begin({kind: 'agent.tool', name: 'never ended'});
    });
    late!.end({'gen_ai.usage.input_tokens': 1});
    // The owner has ended: beginning under its scope records nothing rather than a misplaced span.
  });
  assert.equal(end('never ended').status, 'incomplete');
  assert.equal(end('never ended').attributes?.['gen_ai.usage.input_tokens'], undefined);
  assert.equal(lines.filter((l) => l.name === 'never ended' && l.type === 'operation.end').length, 1);
  const order = lines.filter((l) => l.type === 'operation.end').map((l) => l.name);
  assert.deepEqual(order, ['never ended', 'agent a'], 'the child closes before its parent');
});

test('an observation begun on the workflow span and never ended closes as incomplete with the invocation', async () => {
  const {start, end, workflowSpan} = await record(async (telemetry) => {
    telemetry.begin({kind: 'agent.model', name: 'chat open'});
  });
  assert.equal(start('chat open').parentSpanId, workflowSpan);
  assert.equal(end('chat open').status, 'incomplete');
});

test('the silent telemetry hands out handles that record nothing', async () => {
  const handle = silentTelemetry.begin({kind: 'agent.tool', name: 'x'});
  handle.setAttributes({a: 1});
  handle.addEvent('e');
  handle.end();
  handle.fail(new Error('x'));
  handle.cancel();
  await silentTelemetry.operation({kind: 'k', name: 'n'}, async (scope) => {
    scope.begin({kind: 'agent.tool', name: 'y'}).end();
  });
});

test('work that outlives its parent stays under it after the parent ended, until it ends or the invocation does', async () => {
  let tool: ReturnType<typeof silentTelemetry.begin> | undefined;
  let task: ReturnType<typeof silentTelemetry.begin> | undefined;
  const {start, end, lines} = await record(async (telemetry) => {
    await telemetry.operation({kind: 'agent.execute', name: 'agent first'}, async (scope) => {
      tool = scope.begin({kind: 'agent.tool', name: 'execute_tool Agent'});
      task = tool.begin({kind: 'agent.task', name: 'task sub'}, {outlivesParent: true});
      tool.end();
    });
    await telemetry.operation({kind: 'agent.execute', name: 'agent second'}, async () => {
      // The sub-agent's work reported during the later prompt: under the task, not the running prompt.
      task!.begin({kind: 'agent.tool', name: 'execute_tool Bash'}).end();
      // An explicitly attributed late start under the ended tool call is recorded too.
      tool!.begin({kind: 'agent.task', name: 'task late'}, {outlivesParent: true});
      // Without outlivesParent an ended owner still records nothing.
      tool!.begin({kind: 'agent.tool', name: 'misplaced'}).end();
    });
    task!.end();
  });
  assert.equal(start('task sub').parentSpanId, start('execute_tool Agent').spanId);
  assert.equal(start('execute_tool Bash').parentSpanId, start('task sub').spanId);
  assert.equal(start('task late').parentSpanId, start('execute_tool Agent').spanId);
  assert.equal(end('task sub').status, 'ok', 'not closed when its tool call and its prompt ended');
  assert.equal(end('execute_tool Bash').status, 'ok');
  assert.equal(end('task late').status, 'incomplete', 'closed with the invocation');
  assert.equal(
    lines.some((l) => l.name === 'misplaced'),
    false,
  );
});
