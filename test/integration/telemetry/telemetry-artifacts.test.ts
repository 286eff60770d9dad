// Local artifacts through the real invocation pipeline: no torn events.jsonl record under parallel children,
// and honest outcomes (error, cancelled, incomplete, an end without a start) in events and run.json.
import assert from 'node:assert/strict';
import {Console} from 'node:console';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Writable} from 'node:stream';
import {after, before, test} from 'node:test';
import {z} from 'zod';
import {workflow} from '../../../src/contract/index.ts';
import {StratosError} from '../../../src/errors/index.ts';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';
import {findExecutionContext, invokeWorkflow} from '../../../src/runtime/index.ts';

let base: string;
before(async () => {
  base = await mkdtemp(join(tmpdir(), 'stratos-artifacts-'));
});
after(() => rm(base, {recursive: true, force: true}));

const manifestOf = (name: string): WorkflowManifest => ({
  name,
  shortDescription: `${name}.`,
  longDescription: 'Test.',
  version: '1.0.0',
  entrypoint: 'workflow.ts',
});

async function readEvents(directory: string) {
  const text = await readFile(join(directory, 'events.jsonl'), 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text.trimEnd().split('\n');
  const events = [];
  for (const [index, line] of lines.entries()) {
    try {
      events.push(JSON.parse(line));
    } catch {
      assert.fail(`events.jsonl line ${index + 1} is torn: ${line.slice(0, 80)}…`);
    }
  }
  return events;
}

// Every Console instance publishes on the console channels; this one keeps the test output readable.
const quiet = new Console({stdout: new Writable({write: (_chunk, _encoding, done) => done()})});

test('parallel children with large records never tear an events.jsonl line', async () => {
  const big = 'x'.repeat(20_000);
  const child = workflow({
    input: z.strictObject({n: z.number().describe('')}),
    output: z.object({}),
    async run({n}) {
      const telemetry = findExecutionContext()!.telemetry;
      await Promise.all(
        Array.from({length: 30}, async (_, i) => {
          quiet.log(`child ${n} message ${i}`, big);
          await telemetry.operation(
            {kind: 'mcp.call', name: `call ${i}`, attributes: {payload: big}},
            async () => {
              await new Promise((resolve) => setImmediate(resolve));
            },
          );
        }),
      );
      return {};
    },
  });
  const parent = workflow({
    input: z.strictObject({}),
    output: z.object({}),
    async run() {
      const context = findExecutionContext()!;
      const results = await Promise.all(
        Array.from({length: 8}, (_, n) =>
          invokeWorkflow({
            workflow: {name: 'child', directory: base, manifest: manifestOf('child')},
            definition: child,
            input: {n},
            invocationDirectory: base,
            parent: context,
          }),
        ),
      );
      assert.ok(results.every((r) => r.ok));
      return {};
    },
  });
  const result = await invokeWorkflow({
    workflow: {name: 'parent', directory: base, manifest: manifestOf('parent')},
    definition: parent,
    input: {},
    invocationDirectory: base,
    stratosHome: join(base, 'home'),
  });
  assert.equal(result.ok, true);
  assert.deepEqual(result.telemetryWarnings, []);
  const events = await readEvents(result.runDirectory!);
  assert.equal(events.filter((e) => e.type === 'console').length, 8 * 30);
  assert.equal(events.filter((e) => e.type === 'operation.end').length, 8 * 30);
  const children = new Set(events.filter((e) => e.workflow === 'child').map((e) => e.executionId));
  assert.equal(children.size, 8, 'identity fields tell the interleaved children apart');
  assert.ok(events.every((e) => e.rootExecutionId === result.executionId));
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i),
  );
  const childStarts = events.filter((e) => e.type === 'workflow.start' && e.workflow === 'child');
  const parentStart = events.find((e) => e.type === 'workflow.start' && e.workflow === 'parent');
  assert.ok(childStarts.every((e) => e.parentSpanId === parentStart.spanId));
});

test('error, cancellation, incomplete work and an end without a start are recorded as they happened', async () => {
  const controller = new AbortController();
  const definition = workflow({
    input: z.strictObject({}),
    output: z.object({}),
    async run() {
      const context = findExecutionContext()!;
      const {telemetry} = context;
      await telemetry
        .operation({kind: 'mcp.call', name: 'broken'}, async () => {
          throw new StratosError('STRATOS_INTERNAL', 'tool broke');
        })
        .catch(() => {});
      telemetry.event('agent.tool.completed', {'gen_ai.tool.name': 'late'});
      void telemetry.operation({kind: 'agent.execute', name: 'never ends'}, () => new Promise(() => {}));
      await telemetry.operation({kind: 'mcp.call', name: 'waiting'}, async () => {
        await new Promise((_, reject) => {
          context.abortController.signal.addEventListener('abort', () =>
            reject(context.abortController.signal.reason),
          );
          setTimeout(
            () =>
              controller.abort(new StratosError('STRATOS_RUN_CANCELLED', 'The run was cancelled (SIGINT).')),
            20,
          );
        });
      });
      return {};
    },
  });
  const result = await invokeWorkflow({
    workflow: {name: 'outcomes', directory: base, manifest: manifestOf('outcomes')},
    definition,
    input: {},
    invocationDirectory: base,
    stratosHome: join(base, 'home'),
    signal: controller.signal,
  });
  assert.equal(result.ok, false);
  const events = await readEvents(result.runDirectory!);
  const ends = Object.fromEntries(events.filter((e) => e.type === 'operation.end').map((e) => [e.name, e]));
  assert.equal(ends.broken.status, 'error');
  assert.equal(ends.broken.error.code, 'STRATOS_INTERNAL');
  assert.equal(ends.broken.attributes['error.type'], 'STRATOS_INTERNAL');
  assert.equal(ends.waiting.status, 'cancelled');
  assert.equal(ends.waiting.attributes['error.type'], undefined, 'cancellation is not an error');
  assert.equal(ends['never ends'].status, 'incomplete');
  const point = events.find((e) => e.type === 'event');
  assert.equal(point.name, 'agent.tool.completed');
  assert.equal(events.filter((e) => e.type === 'operation.start' && e.name === undefined).length, 0);
  assert.equal(events.at(-1).type, 'workflow.end');
  assert.equal(events.at(-1).status, 'cancelled');
  const record = JSON.parse(await readFile(join(result.runDirectory!, 'run.json'), 'utf8'));
  assert.equal(record.status, 'cancelled');
  assert.equal(record.error.code, 'STRATOS_RUN_CANCELLED');
});
