/**
 * A budget given as data (`overrides.budget`, a parent's binding, `stratos run --budget-usd/--budget-tokens`): the
 * checks of its amounts, without the YAML parser, so the cached run path can use them (./budget.ts validates the
 * `budget` entry of workflow.yaml with them).
 */
import type {WorkflowBudget} from './types.ts';

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
