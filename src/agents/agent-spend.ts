/**
 * An agent's share of the run's spend: the check before an execute sends anything, and the recording of each
 * observed model call (or turn, where the harness reports usage only per turn) with its computed cost. A call that
 * crosses a budget stops the running turn through the agent's cancellation, with what was spent recorded.
 */
import type {ExecutionContext} from '../context/index.ts';
import {AgentRunError, BudgetExceededError, StratosError} from '../errors/index.ts';
import type {OperationScope, TelemetryAttributes} from '../telemetry/index.ts';
import type {AgentTarget} from './agent-attributes.ts';
import type {TokenCounts} from './harness-kit/hooks.ts';
import type {NativeBudgetError} from './harness-kit/native-budget-error.ts';
import {findHarness} from './harnesses/registry.ts';

/** What the turn's telemetry reports for one call: its counts, the model that answered, Claude's own figure. */
export type ObservedUsage = TokenCounts & {
  model?: string | undefined;
  reasoningTokens?: number | undefined;
  nativeCostUsd?: number | undefined;
};

/**
 * Records what the turn reported and returns its cost attributes: `call` one model response (it may stop the
 * turn), `turn` the usage of a whole turn that has already ended (Codex: the next execute is refused instead),
 * `native` only the harness's own cost figure for calls recorded one by one.
 */
export type SpendObserver = (usage: ObservedUsage, report: 'call' | 'turn' | 'native') => TelemetryAttributes;

type Pricing = typeof import('../providers/pricing/model-cost.ts');

/** The price table, loaded by the first execute's budget check rather than with the authoring entry. */
let pricing: Pricing | undefined;

/** The provider that serves the agent's calls: the explicit one, the harness's default, or the model's prefix. */
export function findServingProvider(target: AgentTarget): string | undefined {
  if (target.provider !== undefined) return target.provider;
  const fixed = findHarness(target.harness).providers[0];
  if (fixed !== undefined) return fixed;
  const slash = target.model?.indexOf('/') ?? -1;
  return slash > 0 ? target.model!.slice(0, slash) : undefined;
}

/**
 * The check before an execute sends anything: a spent budget refuses it (BudgetExceededError, recorded as a
 * `budget.exceeded` event on the agent span); a USD budget without a tokens budget on a model whose price is
 * unknown cannot be enforced (STRATOS_BUDGET_PRICE_UNKNOWN).
 */
export async function checkAgentBudget(
  context: ExecutionContext,
  scope: OperationScope,
  agent: string,
  target: AgentTarget,
): Promise<void> {
  pricing ??= await import('../providers/pricing/model-cost.ts');
  const {hasKnownPrice} = pricing;
  const spend = context.spend;
  if (spend === undefined || !spend.hasBudget()) return;
  const left = spend.remaining();
  const provider = findServingProvider(target);
  if (left.usd !== undefined && left.tokens === undefined && !hasKnownPrice(provider, target.model))
    throw new StratosError(
      'STRATOS_BUDGET_PRICE_UNKNOWN',
      `Agent '${agent}' runs model '${target.model ?? `(the ${target.harness} default)`}' on provider '${provider ?? 'unknown'}', whose price is unknown, so the USD budget of workflow '${context.workflow.name}' cannot be enforced. Set a tokens budget too, or choose a model with a known price.`,
      {details: {agent, harness: target.harness, provider, model: target.model}},
    );
  try {
    spend.checkBudget(`agent '${agent}'`);
  } catch (error) {
    if (error instanceof BudgetExceededError) scope.addEvent('budget.exceeded', budgetAttributes(error));
    throw error;
  }
}

/**
 * The observer that prices each call the turn reports and adds it to the run's spend. When a call leaves a
 * budget spent, the turn is stopped through `stop` (the agent's cancellation) with an AgentRunError coded
 * STRATOS_BUDGET_EXCEEDED whose cause is the BudgetExceededError.
 */
export function observeAgentSpend(
  context: ExecutionContext,
  scope: OperationScope,
  agent: string,
  target: AgentTarget,
  stop: (reason: unknown) => void,
): SpendObserver | undefined {
  const spend = context.spend;
  if (spend === undefined) return undefined;
  const provider = findServingProvider(target);
  return (usage, report) => {
    const nativeOnly = report === 'native';
    const model = usage.model ?? target.model;
    const cost = pricing?.computeCallCost(provider, model, usage) ?? {
      unknown: 'the price table is not loaded',
    };
    spend.record({
      source: 'agent',
      name: agent,
      harness: target.harness,
      provider,
      model: target.model ?? model,
      nativeOnly,
      ...usage,
      usd: cost.usd,
      nativeUsd: usage.nativeCostUsd,
    });
    if (report === 'call' && spend.findBreach() !== undefined) {
      try {
        spend.checkBudget(`agent '${agent}'`, true);
      } catch (error) {
        if (error instanceof BudgetExceededError) {
          scope.addEvent('budget.exceeded', {...budgetAttributes(error), 'stratos.budget.stopped': true});
          stop(
            new AgentRunError(error.message, {
              code: 'STRATOS_BUDGET_EXCEEDED',
              agent,
              harness: target.harness,
              cancelled: true,
              cause: error,
            }),
          );
        }
      }
    }
    if (nativeOnly) return {'stratos.cost.native_usd': usage.nativeCostUsd};
    return {
      'stratos.usage.reasoning_tokens': usage.reasoningTokens,
      'gen_ai.provider.name': provider,
      ...(cost.usd === undefined ? {'stratos.cost.unknown': cost.unknown} : {'stratos.cost.usd': cost.usd}),
      'stratos.cost.native_usd': usage.nativeCostUsd,
    };
  };
}

/**
 * A turn the harness stopped at its own USD cap (NativeBudgetError): the call is marked with a `budget.exceeded`
 * event carrying the harness's figures (`stratos.budget.native`), as Stratos's own stop marks it.
 */
export function recordNativeBudgetStop(scope: OperationScope, error: unknown): void {
  // Recognised by its fields, not its class, so this cached module does not load the adapters' error module.
  if (!(error instanceof AgentRunError) || !('limitUsd' in error)) return;
  const stopped = error as NativeBudgetError;
  scope.addEvent('budget.exceeded', {
    'stratos.budget.unit': 'usd',
    'stratos.budget.spent': stopped.spentUsd,
    'stratos.budget.limit': stopped.limitUsd,
    'stratos.budget.native': true,
    'stratos.budget.stopped': true,
  });
}

/** The attributes of a `budget.exceeded` event. */
export function budgetAttributes(error: BudgetExceededError): TelemetryAttributes {
  return {
    'stratos.budget.unit': error.unit,
    'stratos.budget.spent': error.spent,
    'stratos.budget.limit': error.limit,
    'stratos.budget.workflow': error.workflow,
  };
}
