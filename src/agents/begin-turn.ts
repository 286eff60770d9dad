/**
 * The moment a turn is about to run, its prompt rendered and its step asked for a recorded answer: the one place
 * that decides how an agent's turn runs. A `stratos test` case's answer skips admission and the harness (hooks
 * and output validation still run); otherwise the run's budget is checked and it waits for an admission slot.
 */
import type {ExecutionContext} from '../context/execution-context.ts';
import type {RecordedAnswer} from '../context/recorded-steps.ts';
import type {ScriptedAgentAnswer} from '../context/scripted-answers.ts';

/** How the turn runs: from a scripted answer, or on the harness once admitted (`release` frees the slot). */
export interface TurnStart {
  scripted: ScriptedAgentAnswer | undefined;
  release: () => void;
}

/**
 * Begins one turn of agent `agent`, given the case's answer to its step (if any).
 * @throws BudgetExceededError STRATOS_BUDGET_EXCEEDED (from `checkBudget`, before anything is sent),
 *   STRATOS_AGENT_ADMISSION_LIMIT, STRATOS_AGENT_CANCELLED while waiting for admission.
 */
export async function beginTurn(
  context: ExecutionContext,
  agent: string,
  recorded: (RecordedAnswer & {source: 'case'}) | undefined,
  signal: AbortSignal,
  checkBudget: () => Promise<void>,
): Promise<TurnStart> {
  if (recorded !== undefined) return {scripted: recorded.value as ScriptedAgentAnswer, release: () => {}};
  await checkBudget();
  return {scripted: undefined, release: await context.admission.acquire(`Agent '${agent}'`, signal)};
}
