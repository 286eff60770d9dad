/**
 * The errors of an agent execute: what a harness failure becomes (mapRunError), and each failure the agent object
 * itself reports, with its code and a message that names the agent and says what to do.
 */
import {relative} from 'node:path';
import {AgentRunError, isStratosError, StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {HookFailure} from './harness-kit/hooks.ts';
import type {ModelUnavailableError} from './harness-kit/model-unavailable-error.ts';
import type {SessionProcess} from './selection/find-session-processes.ts';

/** The agent and the harness it runs on, as every error names them. */
export interface AgentErrorSubject {
  agent: string;
  harness: string;
}

/**
 * What a failed turn throws: the cancellation when the execution was cancelled, a hook's failure as
 * STRATOS_AGENT_HOOK_FAILED, any other Stratos error as it is, and anything else as STRATOS_AGENT_RUN_FAILED.
 */
export function mapRunError(error: unknown, signal: AbortSignal, subject: AgentErrorSubject): unknown {
  if (signal.aborted && signal.reason instanceof AgentRunError) return signal.reason;
  if (error instanceof AgentRunError) return error;
  if (error instanceof HookFailure) {
    return new AgentRunError(`${error.message} The execution failed.`, {
      code: 'STRATOS_AGENT_HOOK_FAILED',
      ...subject,
      cause: error.cause,
    });
  }
  if (isStratosError(error)) return error;
  return new AgentRunError(describeError(error), {...subject, cause: error});
}

/** STRATOS_AGENT_BUSY: a second execute while one runs; only the second call fails. */
export function createBusyError(agent: string): StratosError {
  return new StratosError(
    'STRATOS_AGENT_BUSY',
    `Agent '${agent}' is still executing; one agent is one conversation and takes one prompt at a time. Await the running execute, or create another agent for independent work.`,
    {details: {agent}},
  );
}

/** STRATOS_RUNTIME_CONTEXT_CLOSED: an execute after the invocation ended. */
export function createClosedError(agent: string, workflow: string): StratosError {
  return new StratosError(
    'STRATOS_RUNTIME_CONTEXT_CLOSED',
    `Agent '${agent}' was used after workflow '${workflow}' ended. Await all agent work inside run.`,
  );
}

/** STRATOS_AGENT_CANCELLED by `cancel()`. */
export function createCancelledError(subject: AgentErrorSubject): AgentRunError {
  return new AgentRunError('the execution was cancelled.', {...subject, cancelled: true});
}

/** STRATOS_AGENT_CANCELLED because the invocation ended or failed (its reason is the cause). */
export function createInvocationCancelledError(subject: AgentErrorSubject, reason: unknown): AgentRunError {
  return new AgentRunError('the invocation ended or failed, so its agent executions were cancelled.', {
    ...subject,
    cancelled: true,
    cause: reason,
  });
}

/** STRATOS_AGENT_INIT_FAILED: the harness could not start its native session (a Stratos error passes as it is). */
export function mapSessionStartError(
  error: unknown,
  subject: AgentErrorSubject & {workingDirectory: string; invocationDirectory: string},
): unknown {
  if (isStratosError(error)) return error;
  return new StratosError(
    'STRATOS_AGENT_INIT_FAILED',
    `Agent '${subject.agent}' could not start its ${subject.harness} session: ${describeError(error)} A later execute may try again.`,
    {
      cause: error,
      details: {
        agent: subject.agent,
        harness: subject.harness,
        workingDirectory: relative(subject.invocationDirectory, subject.workingDirectory) || '.',
      },
    },
  );
}

/** A rejected model whose session could not be closed: no other model is tried. */
export function createRejectionCloseError(
  rejection: ModelUnavailableError,
  closeError: unknown,
  subject: AgentErrorSubject,
): AgentRunError {
  return new AgentRunError(
    `${rejection.message} Its session could not be closed (${describeError(closeError)}), so no other model is tried.`,
    {...subject, cause: new AggregateError([rejection, closeError])},
  );
}

/** A rejected model whose session left processes running: no other model is tried. */
export function createSurvivorsError(
  rejection: ModelUnavailableError,
  survivors: readonly SessionProcess[],
  subject: AgentErrorSubject,
): AgentRunError {
  const listed = survivors.map((p) => `${p.pid} (${p.command.slice(0, 80)})`).join(', ');
  const one = survivors.length === 1;
  return new AgentRunError(
    `${rejection.message} Its session was not cleaned up: ${one ? 'a process it started is' : 'processes it started are'} still running (${listed}), so no other model is tried. End ${one ? 'it' : 'them'}, and check the MCP servers of this agent.`,
    {...subject, cause: rejection},
  );
}

/** A rejected model with no other prepared candidate. */
export function createNoCandidateLeftError(
  rejection: ModelUnavailableError,
  subject: AgentErrorSubject,
): AgentRunError {
  return new AgentRunError(`${rejection.message} No other prepared model is left to try.`, {
    ...subject,
    cause: rejection,
  });
}
