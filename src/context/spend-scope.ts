/**
 * What one invocation and its descendants have spent, and the budgets that bound it. A top-level run opens the
 * root scope; each child invocation opens a scope under its parent's, with its own budget as an additional inner
 * limit. Every recorded model call adds to its invocation's scope and every ancestor's, so a run's budget covers
 * all its descendants. The root keeps the per-agent, per-model breakdown that `run.json` records.
 */
import {BudgetExceededError, type BudgetUnit} from '../errors/index.ts';
import {
  type Budget,
  emptySpendTotals,
  type RunCost,
  type SpendBreakdownRow,
  type SpendTotals,
  type WorkflowSpend,
} from '../telemetry/artifacts/run-cost.ts';

/** One observed model call (or one turn's usage), with its usage as reported and its computed cost. */
export interface SpendRecord {
  source: 'agent' | 'decision';
  name: string;
  harness?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cacheReadInputTokens?: number | undefined;
  cacheCreationInputTokens?: number | undefined;
  reasoningTokens?: number | undefined;
  /** The computed cost; undefined when unknown. */
  usd?: number | undefined;
  /** The cost the harness reported itself, when it does. */
  nativeUsd?: number | undefined;
  /** Only the harness's own figure for calls already recorded one by one: no call, no tokens added. */
  nativeOnly?: boolean | undefined;
}

/** A budget that is spent: whose, in which unit, how much of how much. */
export interface BudgetBreach {
  workflow: string;
  unit: BudgetUnit;
  spent: number;
  limit: number;
}

export class SpendScope {
  readonly executionId: string;
  readonly workflow: string;
  readonly budget: Budget | undefined;
  readonly parent: SpendScope | undefined;
  readonly totals: SpendTotals = emptySpendTotals();
  #children: SpendScope[] = [];
  #rows = new Map<string, SpendBreakdownRow>();
  #breach: RunCost['budgetExceeded'];

  constructor(options: {executionId: string; workflow: string; budget?: Budget; parent?: SpendScope}) {
    this.executionId = options.executionId;
    this.workflow = options.workflow;
    this.budget = options.budget;
    this.parent = options.parent;
    if (options.parent !== undefined) options.parent.#children.push(this);
  }

  /** The scope of a child invocation, under this one. */
  openChild(executionId: string, workflow: string, budget: Budget | undefined): SpendScope {
    return new SpendScope({executionId, workflow, parent: this, ...(budget === undefined ? {} : {budget})});
  }

  /** Adds one call to this scope, every ancestor, and the root's breakdown. */
  record(call: SpendRecord): void {
    for (let scope: SpendScope | undefined = this; scope !== undefined; scope = scope.parent)
      addCall(scope.totals, call);
    const root = this.#root();
    const key = JSON.stringify([
      this.executionId,
      call.source,
      call.name,
      call.harness,
      call.provider,
      call.model,
    ]);
    let row = root.#rows.get(key);
    if (row === undefined) {
      row = {
        executionId: this.executionId,
        workflow: this.workflow,
        source: call.source,
        name: call.name,
        ...(call.harness === undefined ? {} : {harness: call.harness}),
        ...(call.provider === undefined ? {} : {provider: call.provider}),
        ...(call.model === undefined ? {} : {model: call.model}),
        ...emptySpendTotals(),
      };
      root.#rows.set(key, row);
    }
    addCall(row, call);
  }

  /** The first budget on the way from this scope to the root that is spent, or undefined. */
  findBreach(): BudgetBreach | undefined {
    for (let scope: SpendScope | undefined = this; scope !== undefined; scope = scope.parent) {
      const {budget, totals} = scope;
      if (budget?.tokens !== undefined && totals.tokens >= budget.tokens)
        return {workflow: scope.workflow, unit: 'tokens', spent: totals.tokens, limit: budget.tokens};
      if (budget?.usd !== undefined && totals.usd >= budget.usd)
        return {workflow: scope.workflow, unit: 'usd', spent: totals.usd, limit: budget.usd};
    }
    return undefined;
  }

  /** What is left of the tightest budget in each unit on the way to the root (absent: no such budget). */
  remaining(): Budget {
    const left: Budget = {};
    for (let scope: SpendScope | undefined = this; scope !== undefined; scope = scope.parent) {
      const {budget, totals} = scope;
      if (budget?.tokens !== undefined)
        left.tokens = Math.min(left.tokens ?? Number.POSITIVE_INFINITY, budget.tokens - totals.tokens);
      if (budget?.usd !== undefined)
        left.usd = Math.min(left.usd ?? Number.POSITIVE_INFINITY, budget.usd - totals.usd);
    }
    return left;
  }

  /**
   * Throws BudgetExceededError when a budget on the way to the root is spent; the error is remembered on the root
   * (the first one) for `run.json`.
   */
  checkBudget(subject: string, stopped = false): void {
    const breach = this.findBreach();
    if (breach === undefined) return;
    const root = this.#root();
    root.#breach ??= {...breach, subject};
    throw new BudgetExceededError({...breach, subject, stopped});
  }

  /** Whether any scope on the way to the root has a budget. */
  hasBudget(): boolean {
    for (let scope: SpendScope | undefined = this; scope !== undefined; scope = scope.parent)
      if (scope.budget !== undefined) return true;
    return false;
  }

  /** The run's cost for run.json: call it on the root scope. */
  summarize(): RunCost {
    const workflows: WorkflowSpend[] = [];
    const walk = (scope: SpendScope) => {
      workflows.push({
        executionId: scope.executionId,
        workflow: scope.workflow,
        ...(scope.parent === undefined ? {} : {parentExecutionId: scope.parent.executionId}),
        ...(scope.budget === undefined ? {} : {budget: scope.budget}),
        ...roundTotals(scope.totals),
      });
      for (const child of scope.#children) walk(child);
    };
    walk(this);
    return {
      ...roundTotals(this.totals),
      ...(this.budget === undefined ? {} : {budget: this.budget}),
      ...(this.#breach === undefined ? {} : {budgetExceeded: this.#breach}),
      workflows,
      breakdown: [...this.#rows.values()].map((row) => ({...row, ...roundTotals(row)})),
    };
  }

  #root(): SpendScope {
    let scope: SpendScope = this;
    while (scope.parent !== undefined) scope = scope.parent;
    return scope;
  }
}

function addCall(totals: SpendTotals, call: SpendRecord): void {
  if (call.nativeUsd !== undefined) totals.nativeUsd = (totals.nativeUsd ?? 0) + call.nativeUsd;
  if (call.nativeOnly === true) return;
  totals.calls += 1;
  if (call.inputTokens === undefined || call.outputTokens === undefined) totals.unknownUsageCalls += 1;
  totals.inputTokens += call.inputTokens ?? 0;
  totals.outputTokens += call.outputTokens ?? 0;
  totals.cacheReadInputTokens += call.cacheReadInputTokens ?? 0;
  totals.cacheCreationInputTokens += call.cacheCreationInputTokens ?? 0;
  totals.reasoningTokens += call.reasoningTokens ?? 0;
  totals.tokens += (call.inputTokens ?? 0) + (call.outputTokens ?? 0);
  if (call.usd === undefined) totals.unknownCostCalls += 1;
  else totals.usd += call.usd;
}

/** Sums of float costs, rounded to a hundred-millionth of a dollar. */
function roundTotals<T extends SpendTotals>(totals: T): SpendTotals {
  const {calls, inputTokens, outputTokens, cacheReadInputTokens, cacheCreationInputTokens, reasoningTokens} =
    totals;
  return {
    calls,
    inputTokens,
    outputTokens,
    cacheReadInputTokens,
    cacheCreationInputTokens,
    reasoningTokens,
    tokens: totals.tokens,
    usd: Math.round(totals.usd * 1e8) / 1e8,
    unknownCostCalls: totals.unknownCostCalls,
    unknownUsageCalls: totals.unknownUsageCalls,
    ...(totals.nativeUsd === undefined ? {} : {nativeUsd: Math.round(totals.nativeUsd * 1e8) / 1e8}),
  };
}
