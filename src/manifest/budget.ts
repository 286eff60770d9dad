/**
 * The `budget` of a workflow: `{tokens: N, usd: X}`, either or both, each positive. The same shape is accepted in
 * workflow.yaml, in an invocation's `overrides.budget` and from `stratos run --budget-usd/--budget-tokens`.
 */
import {isScalar} from 'yaml';
import {budgetAmountProblem} from './budget-value.ts';
import {fieldLabel} from './map-entries.ts';
import {readFixedMapping} from './scalar-fields.ts';
import type {WorkflowBudget} from './types.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

const budgetKeys = ['tokens', 'usd'] as const;

/** Validates the `budget` entry of workflow.yaml. */
export function validateBudget(ctx: ValidationContext, entry: ManifestEntry): WorkflowBudget | undefined {
  const fields = readFixedMapping(ctx, entry, budgetKeys, 'with tokens and/or usd');
  if (fields === undefined) return undefined;
  const budget: WorkflowBudget = {};
  let valid = true;
  for (const key of budgetKeys) {
    const field = fields.get(key);
    if (field === undefined) continue;
    const value = isScalar(field.value) ? field.value.value : undefined;
    const problem = budgetAmountProblem(key, value);
    if (problem === undefined) budget[key] = value as number;
    else {
      valid = false;
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        `${fieldLabel(field)} ${problem}; got ${describeValue(field.value)}.`,
        field,
      );
    }
  }
  if (valid && budget.tokens === undefined && budget.usd === undefined) {
    ctx.report('STRATOS_MANIFEST_FIELD_INVALID', `${fieldLabel(entry)} must set tokens, usd or both.`, entry);
    return undefined;
  }
  return valid ? budget : undefined;
}
