// The MCP benchmarks (docs/performance.md): wrapper preparation for a 500-tool server, per-call overhead of a
// generated wrapper's connection against a raw official-SDK client on the same stdio server (sequential and 10
// concurrent callers), and connect time with automatic negotiation against a legacy stdio server, with and
// without the verdict a build remembers. In-process, against the TypeScript sources.
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {cpus, tmpdir} from 'node:os';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {prepareMcpWrappers} from '../src/builder/mcp-preparation.ts';
import {resolveWorkflowPaths} from '../src/builder/workflow-paths.ts';
import {type ExecutionContext, runInExecutionContext} from '../src/context/execution-context.ts';
import {ResourceRegistry} from '../src/context/resource-registry.ts';
import type {WorkflowHandle} from '../src/discovery/index.ts';
import type {McpServerConfig, WorkflowManifest} from '../src/manifest/index.ts';
import {connectMcpServer, McpClientSession, transportIdentity} from '../src/mcp/client/index.ts';
import {AdmissionLimiter} from '../src/runtime/admission.ts';
import {silentTelemetry} from '../src/telemetry/index.ts';
import {SERVE_SCRIPT} from '../test/servers/mcp/index.ts';

const base = mkdtempSync(join(tmpdir(), 'stratos-mcp-bench-'));
const calls = Number(process.env.BENCH_CALLS ?? 1000);
const connects = Number(process.env.BENCH_CONNECTS ?? 10);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number) => `${value.toFixed(value < 10 ? 3 : 0)} ms`;

function stdio(server: string, mode: string, env: Record<string, string> = {}): McpServerConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [SERVE_SCRIPT, server, '--stdio', '--mode', mode],
    env,
  };
}

function fakeHandle(name: string, servers: Record<string, McpServerConfig>): WorkflowHandle {
  mkdirSync(join(base, name), {recursive: true});
  const manifest = {
    name,
    shortDescription: 'b',
    longDescription: 'b',
    version: '1.0.0',
    entrypoint: 'workflow.ts',
    mcp: {servers},
  };
  return {
    name,
    directory: join(base, name),
    root: {directory: base, kind: 'path'},
    manifest,
    diagnostics: [],
    locate: () => ({file: join(base, name, 'workflow.yaml')}),
  } as unknown as WorkflowHandle;
}

// 1. Build preparation for a generated server of 500 tools (discovery over stdio, generation, write).
{
  const handle = fakeHandle('large', {large: stdio('large', 'both', {STRATOS_TEST_TOOL_COUNT: '500'})});
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const prepared = await prepareMcpWrappers(handle, resolveWorkflowPaths(handle), {explicit: true});
    samples.push(performance.now() - started);
    if (prepared.diagnostics.length > 0) throw new Error(JSON.stringify(prepared.diagnostics));
  }
  console.log(
    `wrapper preparation, 500 tools (stdio discovery + generation): median ${ms(median(samples))} (target < 2000 ms)`,
  );
}

// 2. Per-call overhead: generated-wrapper path (connectMcpServer) versus a raw SDK client, same server.
async function timeCalls(call: (i: number) => Promise<unknown>, concurrency: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) await call(i);
  let next = 0;
  await Promise.all(
    Array.from({length: concurrency}, async () => {
      while (next < calls) {
        const i = next++;
        const started = performance.now();
        await call(i);
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}

const counter = stdio('counter', 'both');
const tools = [
  {
    name: 'echo',
    inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
    outputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
  },
];
const manifest = {name: 'bench', mcp: {servers: {counter}}} as unknown as WorkflowManifest;
const context: ExecutionContext = {
  executionId: 'bench',
  rootExecutionId: 'bench',
  workflow: {name: 'bench', directory: base, manifest},
  invocationDirectory: base,
  overrides: {},
  ancestors: [],
  abortController: new AbortController(),
  resources: new ResourceRegistry(),
  notify: () => {},
  admission: new AdmissionLimiter({maxActive: 1, maxOutstanding: 1}),
  telemetry: silentTelemetry,
  startedAt: new Date(),
};
for (const concurrency of [1, 10]) {
  const raw = new Client({name: 'raw', version: '0'}, {versionNegotiation: {mode: 'auto'}});
  await raw.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: counter.type === 'stdio' ? counter.args! : [],
      stderr: 'ignore',
    }),
  );
  await raw.listTools(); // the raw client validates output against its own cached tools/list
  const rawSamples = await timeCalls(
    (i) => raw.callTool({name: 'echo', arguments: {text: `t${i}`}}),
    concurrency,
  );
  await raw.close();
  const connection = await runInExecutionContext(context, () => connectMcpServer({server: 'counter', tools}));
  const wrapperSamples = await timeCalls((i) => connection.callTool('echo', {text: `t${i}`}), concurrency);
  const ratio = median(wrapperSamples) / median(rawSamples);
  console.log(
    `${calls} calls, ${concurrency} ${concurrency === 1 ? 'caller' : 'concurrent callers'}: raw SDK median ${ms(median(rawSamples))}, ` +
      `generated wrapper median ${ms(median(wrapperSamples))} (${ratio.toFixed(2)}x${concurrency === 1 ? ', target <= 1.2x' : ''})`,
  );
}
await context.resources.closeAll();

// 3. Connect to a legacy stdio server: plain legacy connect, auto negotiation, auto with the remembered verdict.
{
  const legacy = stdio('counter', 'legacy');
  const args = legacy.type === 'stdio' ? legacy.args! : [];
  const identity = transportIdentity(legacy, base);
  const spec = {kind: 'stdio' as const, command: process.execPath, args, env: {}, cwd: base};
  const plain = async () => {
    const client = new Client({name: 'raw', version: '0'});
    const started = performance.now();
    await client.connect(new StdioClientTransport({command: process.execPath, args, stderr: 'ignore'}));
    const elapsed = performance.now() - started;
    await client.close();
    return elapsed;
  };
  const stratos = async (prior: boolean) => {
    const session = new McpClientSession({
      server: 'legacy',
      spec,
      timeoutMs: 60_000,
      identity,
      ...(prior ? {prior: {kind: 'legacy' as const, identity}} : {}),
    });
    const started = performance.now();
    await session.open();
    const elapsed = performance.now() - started;
    await session.close();
    return elapsed;
  };
  const samples = {plain: [] as number[], auto: [] as number[], remembered: [] as number[]};
  await plain();
  for (let i = 0; i < connects; i++) {
    samples.plain.push(await plain());
    samples.auto.push(await stratos(false));
    samples.remembered.push(await stratos(true));
  }
  const p = median(samples.plain);
  console.log(
    `connect to a legacy stdio server (${connects} runs, medians): plain legacy ${ms(p)}, auto negotiation ${ms(median(samples.auto))} ` +
      `(${(median(samples.auto) / p).toFixed(2)}x), auto with the remembered verdict ${ms(median(samples.remembered))} ` +
      `(${(median(samples.remembered) / p).toFixed(2)}x, target <= 1.1x)`,
  );
}
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
rmSync(base, {recursive: true, force: true});
