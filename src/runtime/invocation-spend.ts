/**
 * An invocation's spend scope and budget: workflow.yaml's `budget` with the invocation's `overrides.budget` (the
 * caller's, `stratos run --budget-*`, or a parent's binding for a child) over it field by field. A child's scope
 * hangs under its parent's, so the run's budget covers every descendant and the child's own is an inner limit.
 * At the end, the totals go on the workflow span and, for the top-level run, into run.json.
 */
import type {ExecutionContext, InvokedWorkflow} from '../context/execution-context.ts';
import {SpendScope} from '../context/spend-scope.ts';
import {StratosError} from '../errors/index.ts';
import {checkBudgetValue} from '../manifest/budget-value.ts';
import type {WorkflowBudget} from '../manifest/index.ts';
import type {InvocationRecorder} from '../telemetry/index.ts';

/** Opens the spend scope of an invocation under its parent's (a new root for a top-level run). */
export function openInvocationSpend(options: {
  parent: ExecutionContext | undefined;
  executionId: string;
  workflow: InvokedWorkflow;
  overrides: ExecutionContext['overrides'];
}): SpendScope {
  const budget = resolveBudget(options.workflow, options.overrides);
  const parent = options.parent?.spend;
  if (parent !== undefined) return parent.openChild(options.executionId, options.workflow.name, budget);
  return new SpendScope({
    executionId: options.executionId,
    workflow: options.workflow.name,
    ...(budget === undefined ? {} : {budget}),
  });
}

function resolveBudget(
  workflow: InvokedWorkflow,
  overrides: ExecutionContext['overrides'],
): WorkflowBudget | undefined {
  const bound = overrides.budget;
  if (bound !== undefined) {
    // Bindings of a parent reach here unchecked; a caller's overrides were checked with the input.
    const checked = checkBudgetValue(bound, 'overrides.budget');
    if (checked.budget === undefined)
      throw new StratosError(
        'STRATOS_BUDGET_INVALID',
        `The budget given to workflow '${workflow.name}' is not usable: ${checked.problems.join(' ')}`,
        {details: {workflow: workflow.name, problems: checked.problems}},
      );
  }
  const merged = {...workflow.manifest.budget, ...bound};
  return merged.tokens === undefined && merged.usd === undefined ? undefined : merged;
}

/**
 * Puts the invocation's totals on its workflow span (`stratos.workflow.*`: the per-call
 * `gen_ai.usage.*` and `stratos.cost.usd` stay on the calls, so a backend summing them counts each call once) and,
 * for the top-level run, into run.json.
 */
export function recordInvocationSpend(context: ExecutionContext, telemetry: InvocationRecorder): void {
  const spend = context.spend;
  if (spend === undefined) return;
  const {totals, budget} = spend;
  telemetry.setWorkflowAttributes({
    'stratos.workflow.cost.usd': totals.calls === 0 ? undefined : Math.round(totals.usd * 1e8) / 1e8,
    'stratos.workflow.cost.unknown_calls':
      totals.unknownCostCalls === 0 ? undefined : totals.unknownCostCalls,
    'stratos.workflow.usage.tokens': totals.calls === 0 ? undefined : totals.tokens,
    'stratos.budget.tokens': budget?.tokens,
    'stratos.budget.usd': budget?.usd,
  });
  // A run that made no model call and had no budget keeps run.json as it was: nothing to say.
  if (spend.parent === undefined && (totals.calls > 0 || spend.budget !== undefined))
    telemetry.run.cost = spend.summarize();
}
