/**
 * The fallback after a model rejection on a first turn: the rejected session is closed and checked for surviving
 * processes before the candidate cursor moves on. A rejection that cannot be cleaned up fixes the selection: a
 * later execute starts on the same candidate.
 */
import type {OperationScope} from '../telemetry/index.ts';
import {
  type AgentErrorSubject,
  createNoCandidateLeftError,
  createRejectionCloseError,
  createSurvivorsError,
} from './agent-errors.ts';
import type {HarnessSession} from './harness.ts';
import type {ModelUnavailableError} from './harness-kit/model-unavailable-error.ts';
import type {CandidateCursor} from './selection/candidate-cursor.ts';
import {findSurvivingSessionProcesses} from './selection/find-session-processes.ts';

/**
 * Closes the rejected session; only when that succeeded, no process it started survives and another candidate is
 * prepared does the cursor move on (the `stratos.agent.fallback` event records it). Nothing else changes the
 * selection.
 * @throws AgentRunError STRATOS_AGENT_RUN_FAILED when the session could not be cleaned up or no candidate is left.
 */
export async function moveToNextCandidate(options: {
  session: HarnessSession;
  rejection: ModelUnavailableError;
  cursor: CandidateCursor;
  /** The marker every process of the rejected session carries; undefined without model preferences. */
  sessionMarker: string | undefined;
  subject: AgentErrorSubject;
  scope: OperationScope;
}): Promise<void> {
  const {rejection, cursor, subject} = options;
  try {
    await options.session.close();
  } catch (closeError) {
    cursor.fix();
    throw createRejectionCloseError(rejection, closeError, subject);
  }
  const marker = options.sessionMarker;
  const survivors = marker === undefined ? [] : await findSurvivingSessionProcesses(marker);
  if (survivors.length > 0) {
    cursor.fix();
    throw createSurvivorsError(rejection, survivors, subject);
  }
  const moved = cursor.skipRejected(rejection);
  if (moved === undefined) throw createNoCandidateLeftError(rejection, subject);
  options.scope.addEvent('stratos.agent.fallback', {
    'stratos.agent.rejected_harness': moved.skip.harness,
    'stratos.agent.rejected_model': moved.skip.model,
    'stratos.agent.rejection': rejection.evidence,
  });
}
