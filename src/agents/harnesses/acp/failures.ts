/** The coded failures of an ACP agent: its session could not start, or a turn failed. */
import {AgentRunError} from '../../../errors/agent-run-error.ts';
import {StratosError} from '../../../errors/stratos-error.ts';

/** Starting the agent's ACP session failed (STRATOS_AGENT_INIT_FAILED). */
export function acpInitFailure(agent: string, message: string, cause?: unknown): StratosError {
  return new StratosError('STRATOS_AGENT_INIT_FAILED', `Agent '${agent}' (acp): ${message}`, {
    ...(cause === undefined ? {} : {cause}),
    details: {agent, harness: 'acp'},
  });
}

/** A turn failed in the agent (STRATOS_AGENT_RUN_FAILED). */
export function acpRunFailure(agent: string, message: string, cause?: unknown): AgentRunError {
  // AgentRunError names the agent and harness itself.
  return new AgentRunError(message, {
    agent,
    harness: 'acp',
    ...(cause === undefined ? {} : {cause}),
  });
}

/** The message of a JSON-RPC error or any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
