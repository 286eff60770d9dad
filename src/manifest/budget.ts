/**
 * The `budget` of a workflow: `{tokens: N, usd: X}`, either or both, each positive. The same shape is accepted in
 * workflow.yaml, in an invocation's `overrides.budget` and from `stratos run --budget-usd/--budget-tokens`.
 */
import {isScalar} from 'yaml';
import {fieldLabel} from './map-entries.ts';
import {readFixedMapping} from './scalar-fields.ts';
import type {WorkflowBudget} from './types.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

const budgetKeys = ['tokens', 'usd'] as const;

/** The problem of one budget amount, or undefined when it is usable. */
export function budgetAmountProblem(key: 'tokens' | 'usd', value: unknown): string | undefined {
  if (key === 'tokens' && !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0))
    return 'must be a positive whole number of tokens';
  if (key === 'usd' && !(typeof value === 'number' && Number.isFinite(value) && value > 0))
    return 'must be a positive amount of US dollars, such as 2.5';
  return undefined;
}

/** Checks a budget given as data (overrides, bindings); returns the problems, each naming its field. */
export function checkBudgetValue(
  value: unknown,
  path: string,
): {budget?: WorkflowBudget; problems: string[]} {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {problems: [`${path} must be an object such as {"usd": 2, "tokens": 500000}.`]};
  const problems: string[] = [];
  const budget: WorkflowBudget = {};
  for (const [key, amount] of Object.entries(value)) {
    if (key !== 'tokens' && key !== 'usd') {
      problems.push(`${path}.${key} is not a budget field; use tokens and/or usd.`);
      continue;
    }
    const problem = budgetAmountProblem(key, amount);
    if (problem === undefined) budget[key] = amount as number;
    else problems.push(`${path}.${key} ${problem}; got ${JSON.stringify(amount)}.`);
  }
  if (problems.length === 0 && budget.tokens === undefined && budget.usd === undefined)
    problems.push(`${path} must set tokens, usd or both.`);
  return problems.length === 0 ? {budget, problems} : {problems};
}

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
