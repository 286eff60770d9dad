/**
 * The moment a turn is about to run, its prompt rendered: the one place that decides how an agent's turn runs.
 * `stratos test` answers it from its script (then admission and the harness are skipped; hooks and output
 * validation still run); otherwise the run's budget is checked and it waits for an admission slot.
 */
import type {ExecutionContext} from '../context/execution-context.ts';
import type {ScriptedAgentAnswer} from '../context/scripted-answers.ts';

/** How the turn runs: from a scripted answer, or on the harness once admitted (`release` frees the slot). */
export interface TurnStart {
  scripted: ScriptedAgentAnswer | undefined;
  release: () => void;
}

/**
 * Begins one turn of agent `agent`.
 * @throws StratosError STRATOS_TEST_CALL_UNSCRIPTED (a `stratos test` case scripts no reply),
 *   BudgetExceededError STRATOS_BUDGET_EXCEEDED (from `checkBudget`, before anything is sent),
 *   STRATOS_AGENT_ADMISSION_LIMIT, STRATOS_AGENT_CANCELLED while waiting for admission.
 */
export async function beginTurn(
  context: ExecutionContext,
  agent: string,
  prompt: string,
  signal: AbortSignal,
  checkBudget: () => Promise<void>,
): Promise<TurnStart> {
  const scripted = context.scripts?.agent({workflow: context.workflow.name, agent, prompt});
  if (scripted !== undefined) return {scripted, release: () => {}};
  await checkBudget();
  return {scripted, release: await context.admission.acquire(`Agent '${agent}'`, signal)};
}
