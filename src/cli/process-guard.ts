/**
 * Keeps a command's failure inside the command: while it runs, what would crash or end the process (an uncaught
 * exception, an unhandled rejection, `process.exit` called by workflow code, an event loop with nothing left to
 * wait for while a workflow's run is pending) fails the workflow run it belongs to (api/process-failures.ts), so
 * the command still ends with its one result, its run.json final and exit code 1. A failure no run can take
 * fails the command itself: its runs are recorded failed and the failure is printed, the envelope in --json mode.
 */
import {
  failRunningWorkflows,
  type ProcessFailure,
  recordUnfinishedRunsFailed,
} from '../api/process-failures.ts';
import {isStratosError, StratosError} from '../errors/index.ts';

/** Node's own `process.exit`: the CLI's exits go through it, past the guard. */
export const exitProcess: (code?: number) => never = process.exit.bind(process);

export interface ProcessGuard {
  /** The command has printed its result: later failures are only reported, and any exit keeps `code`. */
  commandEnded(code: number): void;
}

/**
 * Installs the guard for one command. `fail` prints a failure no run could take as the command's result and
 * returns its exit code.
 */
export function guardProcess(fail: (error: unknown) => number, report: (text: string) => void): ProcessGuard {
  let endedWith: number | undefined;
  const failCommand = (error: unknown) => {
    if (endedWith !== undefined) {
      // The result is out already: say what happened, without a second result or another exit code.
      report(`${error instanceof Error && error.stack !== undefined ? error.stack : String(error)}\n`);
      return;
    }
    const stratosError = isStratosError(error) ? error : undefined;
    recordUnfinishedRunsFailed({
      code: stratosError?.code ?? 'STRATOS_INTERNAL',
      message:
        stratosError?.message ??
        `Unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    });
    endedWith = fail(error);
    exitProcess(endedWith);
  };
  const onFailure = (failure: ProcessFailure, error: unknown) => {
    if (endedWith === undefined && failRunningWorkflows(failure).length > 0) return;
    failCommand(error);
  };

  process.on('uncaughtException', (error, origin) => onFailure({kind: 'uncaught', error, origin}, error));
  process.on('unhandledRejection', (reason) =>
    onFailure({kind: 'uncaught', error: reason, origin: 'unhandledRejection'}, reason),
  );
  process.on('beforeExit', () => {
    if (endedWith !== undefined) return;
    onFailure(
      {kind: 'drained'},
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
    const [error] = failRunningWorkflows({kind: 'exit', code});
    throw error ?? exitOutsideRun(code);
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
