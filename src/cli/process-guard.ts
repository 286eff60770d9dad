/**
 * Keeps a command's failure inside the command: while it runs, what would crash or end the process (an uncaught
 * exception, an unhandled rejection, `process.exit` called by workflow code, an event loop with nothing left to
 * wait for while a workflow's run is pending) fails the workflow run it belongs to (api/process-failures.ts), so
 * the command still ends with its one result, its run.json final and exit code 1. One left behind by a run that
 * has ended is a warning on stderr. A failure no run can take fails the command itself: its runs are recorded
 * failed and the failure is printed, the envelope in --json mode.
 */
import {
  failRunningWorkflows,
  type ProcessFailure,
  recordUnfinishedRunsFailed,
} from '../api/process-failures.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';

/** Node's own `process.exit`: the CLI's exits go through it, past the guard. */
export const exitProcess: (code?: number) => never = process.exit.bind(process);

export interface ProcessGuard {
  /** The command has printed its result: later failures are only reported, and any exit keeps `code`. */
  commandEnded(code: number): void;
}

export interface ProcessGuardOutput {
  /** Prints a failure no run could take as the command's result and returns its exit code. */
  fail(error: unknown): number;
  /** Writes a line of text to stderr. */
  report(text: string): void;
}

/** Installs the guard for one command. */
export function guardProcess(output: ProcessGuardOutput): ProcessGuard {
  let endedWith: number | undefined;
  const failCommand = (error: unknown) => {
    if (endedWith !== undefined) {
      // The result is out already: say what happened, without a second result or another exit code.
      output.report(`${error instanceof Error && error.stack !== undefined ? error.stack : String(error)}\n`);
      return;
    }
    const stratosError = isStratosError(error) ? error : undefined;
    recordUnfinishedRunsFailed({
      code: stratosError?.code ?? 'STRATOS_INTERNAL',
      message: stratosError?.message ?? `Unexpected error: ${describeError(error)}`,
    });
    endedWith = output.fail(error);
    exitProcess(endedWith);
  };
  /** Fails the run the failure belongs to; a late one is a warning; `undefined` when no workflow took it. */
  const failRun = (failure: ProcessFailure): StratosError | undefined => {
    if (endedWith !== undefined) return undefined;
    const {failed, late} = failRunningWorkflows(failure);
    if (late !== undefined) output.report(`warning ${late.code}: ${late.message}\n`);
    return failed[0] ?? late;
  };

  process.on('uncaughtException', (error) => {
    if (failRun({kind: 'uncaught', error, origin: 'uncaughtException'}) === undefined) failCommand(error);
  });
  process.on('unhandledRejection', (reason) => {
    if (failRun({kind: 'uncaught', error: reason, origin: 'unhandledRejection'}) === undefined)
      failCommand(reason);
  });
  process.on('beforeExit', () => {
    if (endedWith !== undefined || failRun({kind: 'drained'}) !== undefined) return;
    failCommand(
      new StratosError(
        'STRATOS_INTERNAL',
        'The command stopped before it finished: the process had nothing left to wait for while the command was still pending. Run it again; if it happens again, please report it.',
      ),
    );
  });
  // Workflow code must not end the process: the run would end unrecorded and the command without its result.
  // Refused while the command runs (the throw stops the calling code); the run it belongs to fails.
  process.exit = ((code?: number | string | null) => {
    if (endedWith !== undefined) return exitProcess(endedWith);
    throw failRun({kind: 'exit', code}) ?? exitOutsideRun(code);
  }) as typeof process.exit;
  return {
    commandEnded(code) {
      endedWith = code;
    },
  };
}

function exitOutsideRun(code: unknown): StratosError {
  return new StratosError(
    'STRATOS_RUN_PROCESS_EXIT',
    `Code loaded by Stratos called process.exit(${String(code ?? '')}) outside a workflow's run, while the command was running; Stratos refuses it so that the command can report its result. Remove the call from the workflow's module code: return from run, or throw an error to fail it.`,
    {details: {exitCode: typeof code === 'number' || typeof code === 'string' ? code : null}},
  );
}
