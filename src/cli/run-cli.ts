/**
 * The process-level shell around `main`: stdout and stderr (output/process-output.ts), SIGINT/SIGTERM
 * cancellation, stdout kept clean in --json mode, every output channel redacted (workflow writes by
 * output/workflow-echo.ts), and no raw crash or early exit while a command runs (process-guard.ts).
 */
import {redactOutputText, registerEnvironmentSecrets} from '../api/output-redaction.ts';
import {StratosError} from '../errors/index.ts';
import {type CliIo, main, printFailure} from './main.ts';
import {openProcessOutput} from './output/process-output.ts';
import {createWorkflowEcho} from './output/workflow-echo.ts';
import {exitProcess, guardProcess} from './process-guard.ts';

export async function runCli(argv: readonly string[]): Promise<void> {
  registerEnvironmentSecrets(process.env);
  const json = argv.includes('--json');
  // What workflow code writes to the streams is echoed redacted (across write boundaries) and escaped; in --json
  // mode stdout holds only the envelope, so what else is written there joins stderr's echo.
  const stderrEcho = createWorkflowEcho(() => stderr.streamWrite());
  const stdoutEcho = json ? stderrEcho : createWorkflowEcho(() => stdout.streamWrite());
  const stderr = openProcessOutput('stderr', () => stderrEcho.write);
  const stdout = openProcessOutput('stdout', () => stdoutEcho.write);
  // A tail the echo holds back (it may begin a secret) goes out before the CLI's own text, so order is kept.
  const flushEchoes = () => {
    stdoutEcho.flush();
    stderrEcho.flush();
  };
  const writeStderr = (text: string) => {
    flushEchoes();
    stderr.write(text);
  };
  const controller = new AbortController();
  listenForCancellation(controller, writeStderr);
  const io: CliIo = {
    stdout: (text) => {
      flushEchoes();
      stdout.write(text);
    },
    stderr: writeStderr,
    stderrIsTTY: stderr.isTTY,
    stdoutIsTTY: stdout.isTTY,
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
  };
  const guard = guardProcess({
    fail: (error) => printFailure(argv, io, error),
    report: (text) => writeStderr(redactOutputText(text)),
  });
  const code = await main(argv, io);
  guard.commandEnded(code);
  flushEchoes();
  // Exit once stdout has drained: a workflow's leftover timers or sockets must not keep the CLI alive.
  stdout.flush(() => exitProcess(code));
}

const exitCodes = {SIGINT: 130, SIGTERM: 143} as const;

/**
 * The first SIGINT or SIGTERM cancels: the command's signal fires, the run settles as STRATOS_RUN_CANCELLED after
 * its owned work is cancelled and awaited, and the command prints its failure as usual. A second signal exits at
 * once (130 or 143) after recording this process's unfinished runs as cancelled.
 */
function listenForCancellation(controller: AbortController, stderr: (text: string) => void): void {
  const onSignal = (signal: keyof typeof exitCodes) => {
    if (!controller.signal.aborted) {
      controller.abort(
        new StratosError(
          'STRATOS_RUN_CANCELLED',
          `The command was cancelled by ${signal}; running work was stopped. Run it again to start over.`,
          {details: {signal}},
        ),
      );
      return;
    }
    void import('../api/cancel-runs.ts')
      .then(({recordUnfinishedRunsCancelled}) =>
        recordUnfinishedRunsCancelled({
          code: 'STRATOS_RUN_CANCELLED',
          message: `The run was cancelled by a second ${signal}; Stratos exited without waiting for cleanup.`,
        }),
      )
      .finally(() => {
        stderr(`Cancelled by a second ${signal}; exiting now.\n`);
        exitProcess(exitCodes[signal]);
      });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}
