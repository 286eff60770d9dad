import type {StepSeam} from '../context/step-seam.ts';
import type {Diagnostic} from '../errors/index.ts';
import {executeWorkflow} from '../runtime/execute-workflow.ts';
import type {InvocationResult} from '../runtime/invoke-workflow.ts';
import {applyBudgetFlags, type BudgetFlags} from './budget-input.ts';
import {findWorkflow, type HostOptions, resolveHost} from './host.ts';
import {type ProgressOptions, progressOption, warningsOf} from './progress.ts';
import {startRunRetention} from './run-retention.ts';

export interface RunWorkflowOptions extends HostOptions, ProgressOptions {
  signal?: AbortSignal;
  /** `--budget-usd` / `--budget-tokens`: over the input's `overrides.budget` (docs/cost.md). */
  budget?: BudgetFlags;
  /** The run's step seam, when its journal lives elsewhere than its run folder (a queued run's, in PostgreSQL). */
  steps?: StepSeam;
}

export type RunWorkflowResult = InvocationResult & {warnings: Diagnostic[]};

/**
 * Runs a workflow in the invocation directory: resolve, prepare (build when absent or stale), load, invoke.
 * Resolution and build failures throw; failures of the invocation itself are returned with `ok: false`.
 */
export async function runWorkflow(
  target: string,
  input: unknown,
  options: RunWorkflowOptions = {},
): Promise<RunWorkflowResult> {
  const host = resolveHost(options);
  const {workflow, result} = await executeWorkflow({
    resolve: () => findWorkflow(host, target),
    input: options.budget === undefined ? input : applyBudgetFlags(input, options.budget),
    invocationDirectory: host.cwd,
    build: progressOption(options),
    stratosHome: host.home,
    ...(options.signal === undefined ? {} : {signal: options.signal}),
    ...(options.steps === undefined ? {} : {steps: options.steps}),
    ...(options.onNotice === undefined ? {} : {notify: options.onNotice}),
  }).catch((error: unknown) => {
    // A build cancelled by SIGINT fails with the cancellation itself, not the diagnostics it caused.
    throw options.signal?.aborted === true ? options.signal.reason : error;
  });
  // Retention runs after the run's artifacts are final: a few removals here, a larger cleanup in a detached process.
  const retention = await startRunRetention(options);
  const warnings = [...warningsOf(workflow.build.diagnostics), ...result.telemetryWarnings, ...retention];
  return {...result, warnings};
}
