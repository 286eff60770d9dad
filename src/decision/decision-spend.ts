/**
 * A decision's share of the run's spend: the budget check before anything is sent to the provider, and the
 * recording of the answered request's usage with its cost (a local Ollama model costs 0). The usage of failed
 * attempts is not reported by the provider, so it is not recorded (never guessed).
 */
import type {ExecutionContext} from '../context/index.ts';
import {BudgetExceededError} from '../errors/index.ts';
import {computeCallCost} from '../providers/pricing/model-cost.ts';
import type {OperationScope, TelemetryAttributes} from '../telemetry/index.ts';
import type {ResolvedDecisionSettings} from './decision-settings.ts';
import type {ProviderResult} from './provider-result.ts';

/** Refuses the decision when a budget on the way to the run is spent (a `budget.exceeded` event on its span). */
export function checkDecisionBudget(context: ExecutionContext, scope: OperationScope, name: string): void {
  try {
    context.spend?.checkBudget(`decision '${name}'`);
  } catch (error) {
    if (error instanceof BudgetExceededError)
      scope.addEvent('budget.exceeded', {
        'stratos.budget.unit': error.unit,
        'stratos.budget.spent': error.spent,
        'stratos.budget.limit': error.limit,
        'stratos.budget.workflow': error.workflow,
      });
    throw error;
  }
}

/** Adds the answered request to the run's spend and returns its cost attributes. */
export function recordDecisionSpend(
  context: ExecutionContext,
  settings: ResolvedDecisionSettings,
  result: ProviderResult,
): TelemetryAttributes {
  const cost = computeCallCost(settings.provider, result.model, result.usage);
  context.spend?.record({
    source: 'decision',
    name: settings.name,
    provider: settings.provider,
    model: settings.model,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    usd: cost.usd,
  });
  return cost.usd === undefined ? {'stratos.cost.unknown': cost.unknown} : {'stratos.cost.usd': cost.usd};
}
