// A run with direct MCP calls (a real stdio MCP server), two parallel child invocations and a nested operation,
// exported to two live OTLP destinations (HTTP JSON and gRPC), a dead one (HTTP protobuf) and a child-only file.
// Asserts the exact span tree, identical span ids at both live destinations, deduplication, and that the dead
// destination only produces a warning.
import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {z} from 'zod';
import {workflow} from '../../../src/contract/index.ts';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';
import {connectMcpServer} from '../../../src/mcp/client/index.ts';
import {findExecutionContext, invokeWorkflow} from '../../../src/runtime/index.ts';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  renderSpanTree,
  startOtlpReceiver,
} from '../../servers/otlp/index.ts';

const serveScript = fileURLToPath(new URL('../../servers/mcp/serve.ts', import.meta.url));
const echoTool = {
  name: 'echo',
  inputSchema: {type: 'object' as const, properties: {text: {type: 'string'}}, required: ['text']},
  outputSchema: {type: 'object' as const, properties: {text: {type: 'string'}}, required: ['text']},
};

let live: OtlpReceiver;
let grpcLive: OtlpReceiver;
let deadUrl: string;
let base: string;

before(async () => {
  live = await startOtlpReceiver();
  grpcLive = await startOtlpReceiver();
  const dead = await startOtlpReceiver();
  deadUrl = `${dead.httpUrl}/v1/traces`;
  await dead.close();
  base = await mkdtemp(join(tmpdir(), 'stratos-trace-tree-'));
});

after(async () => {
  await live.close();
  await grpcLive.close();
  await rm(base, {recursive: true, force: true});
});

function manifestOf(name: string, extra: Partial<WorkflowManifest>): WorkflowManifest {
  return {
    name,
    shortDescription: `${name}.`,
    longDescription: 'Test.',
    version: '1.0.0',
    entrypoint: 'workflow.ts',
    ...extra,
  };
}

const empty = z.strictObject({});
const anyOutput = z.object({});

test('span tree of a run with MCP calls and parallel children, at two destinations with identical ids', async () => {
  const fileTrace = join(base, 'child-traces.jsonl');
  const childManifest = manifestOf('child', {
    telemetry: {
      exporters: [
        {type: 'otlp', protocol: 'http/json', endpoint: `${live.httpUrl}/v1/traces`}, // same as the parent: deduplicated
        {type: 'file', path: fileTrace}, // only the child exports here
      ],
    },
  });
  const child = workflow({
    input: z.strictObject({n: z.number().describe('')}),
    output: anyOutput,
    async run({n}) {
      const telemetry = findExecutionContext()!.telemetry;
      // The nesting later primitives rely on (agents: model and tool calls as siblings under the agent span).
      await telemetry.operation({kind: 'agent.execute', name: `invoke_agent a${n}`}, async () => {
        await telemetry.operation({kind: 'agent.model', name: 'chat m'}, async (scope) => {
          scope.setAttributes({'gen_ai.usage.input_tokens': 10});
        });
        await telemetry.operation({kind: 'agent.tool', name: 'execute_tool t'}, async () => {});
      });
      return {};
    },
  });
  const parentManifest = manifestOf('parent', {
    mcp: {
      servers: {
        counter: {type: 'stdio', command: process.execPath, args: [serveScript, 'counter', '--stdio']},
      },
    },
    telemetry: {
      exporters: [
        {type: 'otlp', protocol: 'http/json', endpoint: `${live.httpUrl}/v1/traces`},
        {type: 'otlp', protocol: 'grpc', endpoint: grpcLive.grpcUrl},
        {type: 'otlp', protocol: 'http/protobuf', endpoint: deadUrl},
      ],
    },
  });
  const parent = workflow({
    input: empty,
    output: anyOutput,
    async run() {
      const counter = await connectMcpServer({server: 'counter', tools: [echoTool]});
      await counter.callTool('echo', {text: 'one'});
      await counter.callTool('echo', {text: 'two'});
      assert.equal('close' in counter, false, 'the invocation owns the connection: it has no public close()');
      const context = findExecutionContext()!;
      const children = await Promise.all(
        [1, 2].map((n) =>
          invokeWorkflow({
            workflow: {name: 'child', directory: base, manifest: childManifest},
            definition: child,
            input: {n},
            invocationDirectory: base,
            parent: context,
          }),
        ),
      );
      assert.ok(children.every((c) => c.ok));
      return {};
    },
  });

  const result = await invokeWorkflow({
    workflow: {name: 'parent', directory: base, manifest: parentManifest},
    definition: parent,
    input: {},
    invocationDirectory: base,
  });
  assert.equal(result.ok, true, JSON.stringify(result));

  // The dead destination is a warning; the live ones got everything.
  assert.deepEqual(
    result.telemetryWarnings.map((w) => w.code),
    ['STRATOS_TELEMETRY_EXPORT_FAILED'],
  );
  assert.match(result.telemetryWarnings[0]!.message, /otlp http\/protobuf/);

  const expected = [
    'workflow parent',
    '  connect counter',
    '  tools/call echo',
    '  tools/call echo',
    '  workflow child',
    '    invoke_agent a1',
    '      chat m',
    '      execute_tool t',
    '  workflow child',
    '    invoke_agent a2',
    '      chat m',
    '      execute_tool t',
  ];
  const jsonSpans = await live.waitForSpans(12);
  const grpcSpans = await grpcLive.waitForSpans(12);
  assert.deepEqual(renderSpanTree(jsonSpans), expected);
  assert.deepEqual(renderSpanTree(grpcSpans), expected);
  assert.equal(jsonSpans.length, 12, 'a destination declared by parent and child receives each span once');
  assert.equal(new Set(jsonSpans.map((s) => s.traceId)).size, 1, 'one trace per top-level run');
  const identities = (spans: ReceivedSpan[]) =>
    spans.map((s) => `${s.spanId}<${s.parentSpanId ?? ''}`).sort();
  assert.deepEqual(identities(jsonSpans), identities(grpcSpans));

  const byName = (name: string) => jsonSpans.filter((s) => s.name === name);
  const call = byName('tools/call echo')[0]!;
  assert.equal(call.kind, 3, 'MCP calls are client spans');
  assert.equal(call.attributes['stratos.operation.kind'], 'mcp.call');
  assert.equal(call.attributes['gen_ai.operation.name'], 'execute_tool');
  assert.equal(call.attributes['stratos.outcome'], 'ok');
  const root = byName('workflow parent')[0]!;
  assert.equal(root.attributes['stratos.execution.id'], result.executionId);
  const childSpans = byName('workflow child');
  assert.notEqual(
    childSpans[0]!.attributes['stratos.execution.id'],
    childSpans[1]!.attributes['stratos.execution.id'],
  );
  assert.ok(childSpans.every((s) => s.attributes['stratos.root_execution.id'] === result.executionId));
  assert.equal(byName('chat m')[0]!.attributes['gen_ai.usage.input_tokens'], 10);

  // The child-only file holds the children's subtrees, which point at a parent span it does not contain.
  const lines = (await readFile(fileTrace, 'utf8')).trim().split('\n');
  const fileSpans = lines.flatMap((line) =>
    JSON.parse(line).resourceSpans.flatMap(
      (r: {scopeSpans: {spans: {name: string; spanId: string; parentSpanId?: string}[]}[]}) =>
        r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
  assert.deepEqual(fileSpans.map((s: {name: string}) => s.name).sort(), [
    'chat m',
    'chat m',
    'execute_tool t',
    'execute_tool t',
    'invoke_agent a1',
    'invoke_agent a2',
    'workflow child',
    'workflow child',
  ]);
  for (const span of fileSpans.filter((s: {name: string}) => s.name === 'workflow child')) {
    assert.equal(span.parentSpanId, root.spanId);
    assert.equal(jsonSpans.find((s) => s.spanId === span.spanId)?.parentSpanId, root.spanId);
  }
});
