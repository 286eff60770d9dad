/**
 * Runs a workflow body until it settles or its invocation is cancelled from outside (SIGINT or SIGTERM at the CLI,
 * a parent ending), whichever comes first. A body that ignores its signal (a plain sleep) does not hold the
 * invocation: cancellation settles it at once with `STRATOS_RUN_CANCELLED`, and cleanup then cancels and awaits
 * what the invocation owns (agents, MCP clients, child invocations).
 */
import {isStratosError, StratosError} from '../errors/index.ts';
import {runUntilInterrupted} from './run-until-interrupted.ts';

export function untilCancelled<T>(
  signal: AbortSignal,
  workflow: string,
  body: () => T | Promise<T>,
): Promise<T> {
  if (signal.aborted) return Promise.reject(cancellationError(signal.reason, workflow));
  return runUntilInterrupted(
    body,
    (reject) => {
      // Work that ends on the signal itself (an operation rejecting with it) settles within microtasks: one turn
      // of the event loop lets it be recorded as cancelled before the invocation ends without the body.
      const onAbort = () => setImmediate(() => reject(cancellationError(signal.reason, workflow)));
      signal.addEventListener('abort', onAbort, {once: true});
      return () => signal.removeEventListener('abort', onAbort);
    },
    // A body that stops because it was cancelled fails as the cancellation, with its own error as the cause.
    (error) => (signal.aborted ? cancellationError(signal.reason, workflow, error) : error),
  );
}

/** The reason as a `STRATOS_RUN_CANCELLED` error: kept when it is one, wrapped (as the cause) when not. */
export function cancellationError(reason: unknown, workflow: string, thrown?: unknown): StratosError {
  if (isStratosError(thrown) && thrown.code === 'STRATOS_RUN_CANCELLED') return thrown;
  if (isStratosError(reason) && reason.code === 'STRATOS_RUN_CANCELLED') {
    return thrown === undefined || thrown === reason
      ? reason
      : new StratosError(reason.code, reason.message, {cause: thrown, details: reason.details});
  }
  return new StratosError(
    'STRATOS_RUN_CANCELLED',
    `Workflow '${workflow}' was cancelled because its caller ended${reason instanceof Error ? `: ${reason.message}` : '.'}`,
    {cause: thrown ?? reason, details: {workflow}},
  );
}
