/**
 * The workflow bodies (`run` functions) running in this process, so that a failure the process sees rather than the
 * body (an uncaught exception, an unhandled rejection, a `process.exit` call, an event loop with nothing left to
 * wait for) fails the run it belongs to instead of crashing the process or leaving the run `running`.
 *
 * The process shell (the CLI) listens for those events and calls `failRunningWorkflows`; the invocation pipeline
 * wraps each body in `watchRunningBody`. The failure is attributed through the execution context the event
 * happened in (AsyncLocalStorage follows timers and promises): the run of that context, or its nearest running
 * ancestor when its own body has settled. Without a context, every running top-level body fails: there is no
 * way to tell which one the failure came from.
 */
import type {ExecutionContext} from '../context/execution-context.ts';
import {findExecutionContext} from '../context/execution-context.ts';
import {StratosError} from '../errors/index.ts';

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
  return new Promise<T>((resolve, reject) => {
    const entry: RunningBody = {
      context,
      fail(error) {
        if (running.get(context) === entry) running.delete(context);
        reject(error);
      },
    };
    running.set(context, entry);
    const settle = () => {
      if (running.get(context) === entry) running.delete(context);
    };
    try {
      Promise.resolve(body()).then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    } catch (error) {
      settle();
      reject(error);
    }
  });
}

/**
 * Fails the running workflows `failure` belongs to (see the module comment) and returns the errors they failed
 * with; empty when no body is running (the failure then belongs to the process, not to a run). An error this
 * function made earlier counts as already delivered and fails nothing again.
 */
export function failRunningWorkflows(failure: ProcessFailure): StratosError[] {
  if (failure.kind === 'uncaught' && isDelivered(failure.error)) return [failure.error as StratosError];
  const targets = failure.kind === 'drained' ? innermostBodies() : bodiesOf(findExecutionContext());
  return targets.map((body) => {
    const error = failureError(failure, body.context.workflow.name);
    delivered.add(error);
    body.fail(error);
    return error;
  });
}

/** Whether `error` is one `failRunningWorkflows` already failed a run with. */
export function isDelivered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && delivered.has(error);
}

/** The running body of `context`, else of its nearest running ancestor; without one, every top-level body. */
function bodiesOf(context: ExecutionContext | undefined): RunningBody[] {
  for (let current = context; current !== undefined; current = parents.get(current)) {
    const body = running.get(current);
    if (body !== undefined) return [body];
  }
  return [...running.values()].filter((body) => runningAncestor(body.context) === undefined);
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

function failureError(failure: ProcessFailure, workflow: string): StratosError {
  switch (failure.kind) {
    case 'drained':
      return new StratosError(
        'STRATOS_RUN_NEVER_SETTLED',
        `Workflow '${workflow}' never settled: its run function was still waiting when the process had nothing left to wait for (a promise that is never resolved or rejected). Make every promise that run awaits settle, for example by resolving it from the callback or event that ends the work.`,
        {details: {workflow}},
      );
    case 'uncaught': {
      const message = failure.error instanceof Error ? failure.error.message : String(failure.error);
      const what =
        failure.origin === 'uncaughtException'
          ? 'threw an exception that nothing caught'
          : 'rejected a promise that nothing handled';
      return new StratosError(
        'STRATOS_RUN_UNCAUGHT_ERROR',
        `Workflow '${workflow}' failed: its code ${what} (${message}). Await that work inside run, or catch its error, so the run can fail or recover on its own.`,
        {cause: failure.error, details: {workflow, origin: failure.origin}},
      );
    }
    case 'exit':
      return new StratosError(
        'STRATOS_RUN_PROCESS_EXIT',
        `Workflow '${workflow}' called process.exit(${String(failure.code ?? '')}) while it was running; Stratos refuses it so that the run is cleaned up, recorded and reported. Return the output, or throw an error to fail the run.`,
        {details: {workflow, exitCode: exitCodeOf(failure.code)}},
      );
  }
}

function exitCodeOf(code: unknown): number | string | null {
  return typeof code === 'number' || typeof code === 'string' ? code : null;
}
