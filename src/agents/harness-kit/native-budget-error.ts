/**
 * Thrown by a harness adapter when the harness stopped a turn at its own USD cap (Claude Code's `maxBudgetUsd`,
 * the USD budget left when the session started): an AgentRunError coded STRATOS_BUDGET_EXCEEDED that carries the
 * harness's own figures, so the agent can mark the call with a `budget.exceeded` event (../agent-spend.ts).
 */
import {AgentRunError} from '../../errors/index.ts';

export class NativeBudgetError extends AgentRunError {
  /** What the harness says the conversation spent, by its own prices; undefined when it did not say. */
  readonly spentUsd: number | undefined;
  /** The cap it was started with. */
  readonly limitUsd: number | undefined;

  constructor(
    message: string,
    options: {agent: string; harness: string; spentUsd?: number | undefined; limitUsd?: number | undefined},
  ) {
    super(message, {code: 'STRATOS_BUDGET_EXCEEDED', agent: options.agent, harness: options.harness});
    this.spentUsd = options.spentUsd;
    this.limitUsd = options.limitUsd;
  }
}
