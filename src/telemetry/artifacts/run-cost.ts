/**
 * The cost part of `run.json`: what a run and its descendants spent, as reported by the harnesses and providers
 * and priced from the pinned Models.dev snapshot. `usd` sums the calls whose cost is known; `unknownCostCalls`
 * says how many are left out of it (never guessed).
 */

/** A budget: tokens (input and output, cached input included) and/or US dollars. */
export interface Budget {
  tokens?: number;
  usd?: number;
}

/** Summed usage and cost of a set of model calls. */
export interface SpendTotals {
  /** Model calls (or turns, where a harness reports usage only per turn) recorded. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  reasoningTokens: number;
  /** Input plus output tokens: what a `tokens` budget counts. */
  tokens: number;
  /** The sum of the known costs. */
  usd: number;
  /** Calls whose cost is unknown (usage not reported, or no price): left out of `usd`. */
  unknownCostCalls: number;
  /** Calls whose token usage was not reported: left out of the token counts. */
  unknownUsageCalls: number;
  /** The cost the harness reported itself (Claude Code's `total_cost_usd`), beside the computed one. */
  nativeUsd?: number;
}

/** One agent or decision on one model in one invocation. */
export interface SpendBreakdownRow extends SpendTotals {
  executionId: string;
  workflow: string;
  source: 'agent' | 'decision';
  /** The agent's or decision's name. */
  name: string;
  harness?: string;
  provider?: string;
  model?: string;
}

/** One invocation's totals, its descendants included. */
export interface WorkflowSpend extends SpendTotals {
  executionId: string;
  workflow: string;
  parentExecutionId?: string;
  budget?: Budget;
}

/** `run.json`'s `cost`: the run's totals (descendants included), per invocation and per agent and model. */
export interface RunCost extends SpendTotals {
  budget?: Budget;
  /** The first budget the run hit, if any: whose, in which unit, what was refused or stopped. */
  budgetExceeded?: {workflow: string; unit: 'tokens' | 'usd'; spent: number; limit: number; subject: string};
  workflows: WorkflowSpend[];
  breakdown: SpendBreakdownRow[];
}

/** Totals with nothing spent. */
export function emptySpendTotals(): SpendTotals {
  return {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    reasoningTokens: 0,
    tokens: 0,
    usd: 0,
    unknownCostCalls: 0,
    unknownUsageCalls: 0,
  };
}
