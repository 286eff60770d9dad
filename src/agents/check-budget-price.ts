/**
 * The build-time half of "a USD budget needs a price": a configured agent whose harness and model are fixed in
 * workflow.yaml, under a workflow `budget` with `usd` and no `tokens`, must run a model with a known price
 * (docs/cost.md). Agents chosen by model preferences or the harness's default model are checked at their first
 * execute instead, when the model is known.
 */
import type {Diagnostic, SourceLocation} from '../errors/index.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import {findServingProvider} from './agent-spend.ts';
import {isHarnessId} from './harnesses/registry.ts';
import type {AgentConfigFields} from './settings.ts';

/** A STRATOS_BUDGET_PRICE_UNKNOWN diagnostic at the agent's `model`, or none. */
export async function checkBudgetPrice(
  name: string,
  settings: AgentConfigFields,
  manifest: WorkflowManifest,
  locate: (path: (string | number)[]) => Promise<SourceLocation>,
): Promise<Diagnostic[]> {
  const budget = manifest.budget;
  if (budget?.usd === undefined || budget.tokens !== undefined) return [];
  const {harness, model} = settings;
  if (!isHarnessId(harness) || typeof model !== 'string') return [];
  const provider = findServingProvider({harness, provider: settings.provider, model});
  // The price table loads only for a workflow whose budget needs it.
  const {hasKnownPrice} = await import('../providers/pricing/model-cost.ts');
  if (hasKnownPrice(provider, model)) return [];
  const path = ['agents', name, 'model'];
  return [
    {
      code: 'STRATOS_BUDGET_PRICE_UNKNOWN',
      severity: 'error',
      message: `Agent '${name}' runs model '${model}' on provider '${provider ?? 'unknown'}', whose price is unknown, so the budget's usd limit cannot be enforced. Add a tokens limit to budget:, or choose a model with a known price.`,
      location: await locate(path),
      path: path.join('.'),
    },
  ];
}
