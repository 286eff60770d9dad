/**
 * The workflow bodies (`run` functions) running in this process, so that a failure the process sees rather than the
 * body (an uncaught exception, an unhandled rejection, a `process.exit` call, an event loop with nothing left to
 * wait for) fails the run it belongs to instead of crashing the process or leaving the run `running`.
 *
 * The process shell (the CLI) listens for those events and calls `failRunningWorkflows`; the invocation pipeline
 * wraps each body in `watchRunningBody`. The failure is attributed through the execution context the event
 * happened in (AsyncLocalStorage follows timers and promises): the run of that context, or its nearest running
 * ancestor when its own body has settled; a callback left behind by a run that has ended fails no other run (it
 * is reported as late). Without a context, every running top-level body fails: there is no way to tell which one
 * the failure came from. When the event loop drains, the innermost pending bodies fail: none of them can settle.
 */
import type {ExecutionContext} from '../context/execution-context.ts';
import {findExecutionContext} from '../context/execution-context.ts';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {runUntilInterrupted} from './run-until-interrupted.ts';

/** What the process saw, to be turned into a failure of the running workflows it belongs to. */
export type ProcessFailure =
  /** The event loop has nothing left to do while bodies are pending: they can never settle. */
  | {kind: 'drained'}
  /** An exception nothing caught, or a rejection nothing handled. */
  | {kind: 'uncaught'; error: unknown; origin: 'uncaughtException' | 'unhandledRejection'}
  /** Code called `process.exit(code)`. */
  | {kind: 'exit'; code: unknown};

interface RunningBody {
  context: ExecutionContext;
  fail(error: StratosError): void;
}

const running = new Map<ExecutionContext, RunningBody>();
/** Each child invocation's parent context, kept after the child's body settles (for its leftover callbacks). */
const parents = new WeakMap<ExecutionContext, ExecutionContext>();
/** Errors already used to fail a run: the same error reaching the process again is not a second failure. */
const delivered = new WeakSet<object>();

/**
 * Runs `body` as the running body of `context` until it settles; `failRunningWorkflows` can fail it first, with
 * the coded error it makes. A body that settles later is ignored.
 */
export function watchRunningBody<T>(
  context: ExecutionContext,
  parent: ExecutionContext | undefined,
  body: () => T | Promise<T>,
): Promise<T> {
  if (parent !== undefined) parents.set(context, parent);
  return runUntilInterrupted(body, (reject) => {
    const entry: RunningBody = {
      context,
      fail(error) {
        if (running.get(context) === entry) running.delete(context);
        reject(error);
      },
    };
    running.set(context, entry);
    return () => {
      if (running.get(context) === entry) running.delete(context);
    };
  });
}

/** What became of a failure the process saw. */
export interface ProcessFailureOutcome {
  /** The errors the runs it belonged to failed with; empty when no run took it. */
  failed: StratosError[];
  /**
   * It came from a workflow whose run had already ended (a callback it left behind): no run is left to fail, and
   * no other run is failed for it. The error describes it, to report as a warning.
   */
  late?: StratosError;
}

/**
 * Fails the running workflows `failure` belongs to (see the module comment). Neither `failed` nor `late` when it
 * came from no workflow and no body is running: the failure then belongs to the process, not to a run. An error
 * this function made earlier counts as already delivered and fails nothing again.
 */
export function failRunningWorkflows(failure: ProcessFailure): ProcessFailureOutcome {
  if (failure.kind === 'uncaught' && isDelivered(failure.error)) {
    return {failed: [failure.error as StratosError]};
  }
  if (failure.kind === 'drained') return {failed: innermostBodies().map((body) => failBody(body, failure))};
  const context = findExecutionContext();
  const own = context === undefined ? undefined : runningBodyOf(context);
  if (own !== undefined) return {failed: [failBody(own, failure)]};
  if (context !== undefined) {
    const late = failureError(failure, context.workflow.name, true);
    delivered.add(late);
    return {failed: [], late};
  }
  const topLevel = [...running.values()].filter((body) => runningAncestor(body.context) === undefined);
  return {failed: topLevel.map((body) => failBody(body, failure))};
}

/** The body of `context` is no longer running: its invocation has moved on (to cleanup) without it. */
export function endRunningBody(context: ExecutionContext): void {
  running.delete(context);
}

/** Whether `error` is one `failRunningWorkflows` already made. */
function isDelivered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && delivered.has(error);
}

function failBody(body: RunningBody, failure: ProcessFailure): StratosError {
  const error = failureError(failure, body.context.workflow.name, false);
  delivered.add(error);
  body.fail(error);
  return error;
}

/** The running body of `context`, else of its nearest running ancestor. */
function runningBodyOf(context: ExecutionContext): RunningBody | undefined {
  return running.get(context) ?? runningAncestor(context);
}

/**
 * The running bodies no other running body descends from. A parent waiting for a child gets the child's failure
 * first, as any failed child; if it still cannot settle, the next drain fails it.
 */
function innermostBodies(): RunningBody[] {
  const waitedOn = new Set<ExecutionContext>();
  for (const body of running.values()) {
    for (let parent = parents.get(body.context); parent !== undefined; parent = parents.get(parent)) {
      waitedOn.add(parent);
    }
  }
  return [...running.values()].filter((body) => !waitedOn.has(body.context));
}

function runningAncestor(context: ExecutionContext): RunningBody | undefined {
  for (let parent = parents.get(context); parent !== undefined; parent = parents.get(parent)) {
    const body = running.get(parent);
    if (body !== undefined) return body;
  }
  return undefined;
}

function failureError(failure: ProcessFailure, workflow: string, late: boolean): StratosError {
  const when = late ? ' after its run had ended' : '';
  switch (failure.kind) {
    case 'drained':
      return new StratosError(
        'STRATOS_RUN_NEVER_SETTLED',
        `Workflow '${workflow}' never settled: its run function was still waiting when the process had nothing left to wait for (a promise that is never resolved or rejected). Make every promise that run awaits settle, for example by resolving it from the callback or event that ends the work.`,
        {details: {workflow}},
      );
    case 'uncaught': {
      const message = describeError(failure.error);
      const what =
        failure.origin === 'uncaughtException'
          ? 'threw an exception that nothing caught'
          : 'rejected a promise that nothing handled';
      return new StratosError(
        'STRATOS_RUN_UNCAUGHT_ERROR',
        late
          ? `Workflow '${workflow}' ${what}${when} (${message}); it was ignored. Await all work inside run, or catch its error.`
          : `Workflow '${workflow}' failed: its code ${what} (${message}). Await that work inside run, or catch its error, so the run can fail or recover on its own.`,
        {cause: failure.error, details: {workflow, origin: failure.origin}},
      );
    }
    case 'exit':
      return new StratosError(
        'STRATOS_RUN_PROCESS_EXIT',
        `Workflow '${workflow}' called process.exit(${String(failure.code ?? '')})${late ? when : ' while it was running'}; Stratos refuses it so that the run is cleaned up, recorded and reported. Return the output, or throw an error to fail the run.`,
        {details: {workflow, exitCode: exitCodeOf(failure.code)}},
      );
  }
}

function exitCodeOf(code: unknown): number | string | null {
  return typeof code === 'number' || typeof code === 'string' ? code : null;
}
