/**
 * `stratos run --budget-usd X --budget-tokens N`: the flags go into the input's `overrides.budget`, over the fields
 * the input's own overrides set (the flags come last in the precedence), and are checked like any budget.
 */
import {StratosError} from '../errors/index.ts';
import {budgetAmountProblem} from '../manifest/budget-value.ts';

/** A budget given on the command line, as text. */
export interface BudgetFlags {
  usd?: string | undefined;
  tokens?: string | undefined;
}

/**
 * The input with the flags' budget in `overrides.budget`; the input unchanged when no flag is given or it is not
 * an object (the invocation reports that).
 * @throws StratosError STRATOS_BUDGET_INVALID for a flag that is not a positive amount.
 */
export function applyBudgetFlags(input: unknown, flags: BudgetFlags): unknown {
  const budget: {usd?: number; tokens?: number} = {};
  for (const [unit, text] of [
    ['usd', flags.usd],
    ['tokens', flags.tokens],
  ] as const) {
    if (text === undefined) continue;
    const amount = text.trim() === '' ? Number.NaN : Number(text);
    const problem = budgetAmountProblem(unit, amount);
    if (problem !== undefined)
      throw new StratosError(
        'STRATOS_BUDGET_INVALID',
        `--budget-${unit} ${problem}; got '${text}'. Pass it as --budget-${unit} ${unit === 'usd' ? '2.5' : '400000'}.`,
        {details: {option: `--budget-${unit}`, value: text}},
      );
    budget[unit] = amount;
  }
  if (Object.keys(budget).length === 0 || typeof input !== 'object' || input === null || Array.isArray(input))
    return input;
  const record = input as Record<string, unknown>;
  const overrides = (
    typeof record.overrides === 'object' && record.overrides !== null ? record.overrides : {}
  ) as Record<string, unknown>;
  const own = typeof overrides.budget === 'object' && overrides.budget !== null ? overrides.budget : {};
  return {...record, overrides: {...overrides, budget: {...own, ...budget}}};
}
