import {StratosError} from './stratos-error.ts';

/** What a budget limits: tokens (input and output, cached input included) or US dollars. */
export type BudgetUnit = 'tokens' | 'usd';

/**
 * A run or child workflow has spent its budget: the agent execute or decision that would have gone past it was not
 * sent (`STRATOS_BUDGET_EXCEEDED`), or a turn was stopped at the model step that crossed it. Catchable like any
 * Stratos error; `spent` and `limit` are in `unit`, `workflow` is the workflow whose budget it is.
 */
export class BudgetExceededError extends StratosError {
  readonly unit: BudgetUnit;
  readonly spent: number;
  readonly limit: number;
  readonly workflow: string;

  constructor(options: {
    unit: BudgetUnit;
    spent: number;
    limit: number;
    workflow: string;
    /** What was refused or stopped: `agent 'reviewer'`, `decision 'route'`. */
    subject: string;
    /** True when a running turn was stopped; false when nothing was sent. */
    stopped?: boolean;
  }) {
    const figure = (value: number) => (options.unit === 'usd' ? `$${value.toFixed(4)}` : `${value} tokens`);
    const what = options.stopped
      ? `so the turn of ${options.subject} was stopped at the model step that crossed it`
      : `so ${options.subject} was not sent`;
    super(
      'STRATOS_BUDGET_EXCEEDED',
      `Workflow '${options.workflow}' has spent ${figure(options.spent)} of its ${figure(options.limit)} budget, ${what}. Raise the budget (budget: in workflow.yaml, overrides.budget or stratos run --budget-${options.unit === 'usd' ? 'usd' : 'tokens'}) or spend less.`,
      {
        details: {
          unit: options.unit,
          spent: options.spent,
          limit: options.limit,
          workflow: options.workflow,
          subject: options.subject,
          stopped: options.stopped === true,
        },
      },
    );
    this.name = 'BudgetExceededError';
    this.unit = options.unit;
    this.spent = options.spent;
    this.limit = options.limit;
    this.workflow = options.workflow;
  }
}
