// The overhead of telemetry (docs/performance.md "Telemetry"): one workflow invocation making 1,000 sequential
// direct MCP calls to the stdio `counter` test server, through the real pipeline (invokeWorkflow) and the real
// MCP client. Compared side by side in each round:
//   silent     the invocation's recorder replaced by the silent one (no spans, no events, no files)
//   artifacts  the default: run.json, run.log and events.jsonl written (no trace destination)
//   traced     artifacts plus OTLP/HTTP protobuf export to a receiver in its own process
// In-process, against the TypeScript sources. BENCH_ROUNDS (default 7), BENCH_CALLS (default 1000).
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createInterface} from 'node:readline';
import {z} from 'zod';
import {workflow} from '../src/contract/index.ts';
import type {WorkflowManifest} from '../src/manifest/index.ts';
import {connectMcpServer} from '../src/mcp/client/index.ts';
import {findExecutionContext, invokeWorkflow} from '../src/runtime/index.ts';
import {silentTelemetry} from '../src/telemetry/index.ts';
import {SERVE_SCRIPT} from '../test/servers/mcp/index.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const calls = Number(process.env.BENCH_CALLS ?? 1000);
const base = mkdtempSync(join(tmpdir(), 'stratos-telemetry-bench-'));
const echo = {
  name: 'echo',
  inputSchema: {type: 'object' as const, properties: {text: {type: 'string'}}, required: ['text']},
  outputSchema: {type: 'object' as const, properties: {text: {type: 'string'}}, required: ['text']},
};

const receiver = spawn(process.execPath, [join(import.meta.dirname, '..', 'test/servers/otlp/serve.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines = createInterface({input: receiver.stdout!});
const {httpUrl} = JSON.parse(await new Promise<string>((resolve) => lines.once('line', resolve))) as {
  httpUrl: string;
};
let received = 0;
lines.on('line', () => received++);

type Variant = 'silent' | 'artifacts' | 'traced';

async function runOnce(variant: Variant): Promise<number> {
  const manifest: WorkflowManifest = {
    name: 'bench',
    shortDescription: 'Bench.',
    longDescription: 'Bench.',
    version: '1.0.0',
    entrypoint: 'workflow.ts',
    mcp: {
      servers: {
        counter: {type: 'stdio', command: process.execPath, args: [SERVE_SCRIPT, 'counter', '--stdio']},
      },
    },
    ...(variant === 'traced'
      ? {
          telemetry: {
            exporters: [
              {type: 'otlp' as const, protocol: 'http/protobuf' as const, endpoint: `${httpUrl}/v1/traces`},
            ],
          },
        }
      : {}),
  };
  let callsMs = 0;
  const definition = workflow({
    input: z.strictObject({}),
    output: z.object({}),
    async run() {
      if (variant === 'silent') findExecutionContext()!.telemetry = silentTelemetry;
      const counter = await connectMcpServer({server: 'counter', tools: [echo]});
      const started = performance.now();
      for (let i = 0; i < calls; i++) await counter.callTool('echo', {text: `call ${i}`});
      callsMs = performance.now() - started;
      return {};
    },
  });
  const started = performance.now();
  const result = await invokeWorkflow({
    workflow: {name: 'bench', directory: base, manifest},
    definition,
    input: {},
    invocationDirectory: base,
    ...(variant === 'silent' ? {} : {stratosHome: join(base, 'home')}),
  });
  const totalMs = performance.now() - started;
  if (!result.ok) throw result.error;
  if (result.telemetryWarnings.length > 0) throw new Error(JSON.stringify(result.telemetryWarnings));
  void callsMs;
  return totalMs;
}

const variants: Variant[] = ['silent', 'artifacts', 'traced'];
const samples: Record<Variant, number[]> = {silent: [], artifacts: [], traced: []};
for (const variant of variants) await runOnce(variant); // warm-up
for (let round = 0; round < rounds; round++) {
  for (const variant of variants) samples[variant].push(await runOnce(variant));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const silent = median(samples.silent);
console.log(
  `${calls} direct MCP calls in one invocation, ${rounds} rounds (median wall clock of the invocation):`,
);
for (const variant of variants) {
  const value = median(samples[variant]);
  const overhead = ((value / silent - 1) * 100).toFixed(1);
  console.log(
    `  ${variant.padEnd(9)} ${value.toFixed(0)} ms  (${(value / calls).toFixed(3)} ms per call; ${variant === 'silent' ? 'baseline' : `${overhead}% over silent`})  samples ${samples[variant].map((s) => s.toFixed(0)).join(' ')}`,
  );
}
await new Promise((resolve) => setTimeout(resolve, 1000)); // let the receiver's stdout lines arrive
console.log(`  spans received by the OTLP receiver: ${received} (expected ${(rounds + 1) * (calls + 2)})`);
receiver.kill('SIGTERM');
rmSync(base, {recursive: true, force: true});
const traced = median(samples.traced);
if (traced / silent > 1.1) {
  console.log(`  target (at most 10% over silent) missed: ${((traced / silent - 1) * 100).toFixed(1)}%`);
}
