// The overhead of cost accounting (docs/performance.md "Cost accounting"): one workflow invocation whose agent
// turn telemetry observes 2,000 model calls (start, then end with usage as Claude Code reports it), through the
// real pipeline (invokeWorkflow, run artifacts written) and the real TurnTelemetry. Compared side by side in each
// round, alternating which goes first:
//   plain      the turn telemetry without the spend observer (usage recorded on spans, no pricing, no sums)
//   accounted  with it: each call priced from the shipped table, added to the run's spend and checked against a
//              budget that is never reached
// The result is the median of the per-round differences, per model call. In-process, against the TypeScript
// sources. BENCH_ROUNDS (default 15), BENCH_CALLS (default 2000).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {z} from 'zod';
import {checkAgentBudget, observeAgentSpend} from '../src/agents/agent-spend.ts';
import {TurnTelemetry} from '../src/agents/turn-telemetry.ts';
import {workflow} from '../src/contract/index.ts';
import type {WorkflowManifest} from '../src/manifest/index.ts';
import {findExecutionContext, invokeWorkflow} from '../src/runtime/index.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const calls = Number(process.env.BENCH_CALLS ?? 2000);
const base = mkdtempSync(join(tmpdir(), 'stratos-cost-bench-'));
const target = {harness: 'claude-code' as const, provider: 'anthropic', model: 'claude-sonnet-4-5'};
const usage = {
  inputTokens: 4500,
  outputTokens: 200,
  cacheReadInputTokens: 3000,
  cacheCreationInputTokens: 500,
};

type Variant = 'plain' | 'accounted';

async function runOnce(variant: Variant): Promise<number> {
  const manifest: WorkflowManifest = {
    name: 'bench',
    shortDescription: 'Bench.',
    longDescription: 'Bench.',
    version: '1.0.0',
    entrypoint: 'workflow.ts',
    budget: {usd: 1_000_000},
  };
  let callsMs = 0;
  const definition = workflow({
    input: z.strictObject({}),
    output: z.object({}),
    async run() {
      const context = findExecutionContext()!;
      await context.telemetry.operation({kind: 'agent.execute', name: 'agent bench'}, async (scope) => {
        await checkAgentBudget(context, scope, 'bench', target);
        const spend =
          variant === 'accounted' ? observeAgentSpend(context, scope, 'bench', target, () => {}) : undefined;
        const turn = new TurnTelemetry(scope, 'claude-code', target.model, undefined, spend);
        const started = performance.now();
        for (let i = 0; i < calls; i++) {
          turn.observe({type: 'model.start'});
          turn.observe({type: 'model.end', model: 'claude-sonnet-4-5-20250929', ...usage});
        }
        callsMs = performance.now() - started;
      });
      return {};
    },
  });
  const result = await invokeWorkflow({
    workflow: {name: 'bench', directory: base, manifest},
    definition,
    input: {},
    invocationDirectory: base,
    stratosHome: join(base, 'home'),
  });
  if (!result.ok) throw result.error;
  return callsMs;
}

const samples: Record<Variant, number[]> = {plain: [], accounted: []};
const differences: number[] = [];
for (const variant of ['plain', 'accounted'] as const) await runOnce(variant); // warm-up
for (let round = 0; round < rounds; round++) {
  const order: Variant[] = round % 2 === 0 ? ['plain', 'accounted'] : ['accounted', 'plain'];
  const measured: Partial<Record<Variant, number>> = {};
  for (const variant of order) measured[variant] = await runOnce(variant);
  samples.plain.push(measured.plain!);
  samples.accounted.push(measured.accounted!);
  differences.push(measured.accounted! - measured.plain!);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const perCall = (ms: number) => `${((ms / calls) * 1000).toFixed(2)} µs`;
console.log(
  `${calls} observed model calls per invocation, ${rounds} rounds (median of the calls' wall clock):`,
);
for (const variant of ['plain', 'accounted'] as const) {
  const value = median(samples[variant]);
  console.log(
    `  ${variant.padEnd(9)} ${value.toFixed(1)} ms  (${perCall(value)} per call)  samples ${samples[variant].map((s) => s.toFixed(0)).join(' ')}`,
  );
}
const difference = median(differences);
console.log(
  `  accounting adds ${perCall(difference)} per model call (median of paired differences; ratio ${(median(samples.accounted) / median(samples.plain)).toFixed(3)})`,
);
rmSync(base, {recursive: true, force: true});
