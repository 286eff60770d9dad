/** The process-level shell around `main`: real streams, SIGINT cancellation, stdout kept clean in --json mode. */
import {StratosError} from '../errors/index.ts';
import {main} from './main.ts';

export async function runCli(argv: readonly string[]): Promise<void> {
  const stdout = process.stdout.write.bind(process.stdout);
  if (argv.includes('--json')) {
    // The workflow's own console output and stray writes go to stderr: stdout holds only the envelope.
    process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  }
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort(new StratosError('STRATOS_RUN_CANCELLED', 'The run was cancelled (SIGINT).'));
  });
  const code = await main(argv, {
    stdout: (text) => stdout(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
  });
  // Exit once stdout has drained: a workflow's leftover timers or sockets must not keep the CLI alive.
  stdout('', () => process.exit(code));
}
