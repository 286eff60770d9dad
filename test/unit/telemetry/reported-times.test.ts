// Observations timed by their source (OpenCode's event stream reports when a step or a tool started and ended):
// `begin({startMs})` and `end(attributes, endMs)` take those times, kept within the parent span and never after now.
import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {
  closeInvocationTelemetry,
  openInvocationTelemetry,
} from '../../../src/telemetry/open-invocation-telemetry.ts';

let base: string;
before(async () => {
  base = await mkdtemp(join(tmpdir(), 'stratos-reported-'));
});
after(() => rm(base, {recursive: true, force: true}));

interface Line {
  type: string;
  name?: string;
  time?: string;
  durationMs?: number;
}

async function record(fn: (telemetry: Awaited<ReturnType<typeof openInvocationTelemetry>>) => Promise<void>) {
  const telemetry = await openInvocationTelemetry({
    executionId: `e${Math.random().toString(16).slice(2, 10)}`,
    startedAt: new Date(),
    workflow: {name: 'w', version: '1.0.0', directory: base},
    invocationDirectory: base,
    input: {},
    signal: new AbortController().signal,
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
  const text = await readFile(join(report.runDirectory!, 'events.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('reported start and end times are used, within the parent span and not after now', async () => {
  let agentStart = 0;
  let reportedStart = 0;
  let reportedEnd = 0;
  const lines = await record(async (telemetry) => {
    await telemetry.operation({kind: 'agent.execute', name: 'agent a'}, async (scope) => {
      agentStart = Date.now();
      await sleep(60);
      reportedStart = Date.now() - 40;
      const tool = scope.begin({kind: 'agent.tool', name: 'reported', startMs: reportedStart});
      reportedEnd = Date.now() - 10;
      await sleep(30);
      tool.end(undefined, reportedEnd);
      // A start before the parent began is kept at the parent's start; an end in the future at now.
      const early = scope.begin({kind: 'agent.tool', name: 'early', startMs: agentStart - 10_000});
      early.end(undefined, Date.now() + 60_000);
      scope.begin({kind: 'agent.tool', name: 'unreported'}).end();
    });
  });
  const at = (type: string, name: string) => {
    const line = lines.find((l) => l.type === type && l.name === name)!;
    return line;
  };
  const reported = at('operation.end', 'reported');
  assert.equal(Date.parse(at('operation.start', 'reported').time!), reportedStart);
  assert.equal(Math.round(reported.durationMs!), reportedEnd - reportedStart);
  const agent = Date.parse(at('operation.start', 'agent a').time!);
  assert.ok(Date.parse(at('operation.start', 'early').time!) >= agent);
  const early = at('operation.end', 'early');
  assert.ok(Date.parse(early.time!) <= Date.now());
  assert.ok(Date.parse(early.time!) <= Date.parse(at('operation.end', 'agent a').time!));
  assert.ok(at('operation.end', 'unreported').durationMs! >= 0);
});
