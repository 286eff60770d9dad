/** The process-level shell around `main`: real streams, SIGINT cancellation, stdout kept clean in --json mode. */
import {redactOutputText, registerEnvironmentSecrets} from '../api/output-redaction.ts';
import {StratosError} from '../errors/index.ts';
import {main} from './main.ts';

export async function runCli(argv: readonly string[]): Promise<void> {
  registerEnvironmentSecrets(process.env);
  const stdout = process.stdout.write.bind(process.stdout);
  const stderr = process.stderr.write.bind(process.stderr);
  // The workflow's own console output (and stray writes) is echoed through the same redactor as everything else.
  process.stderr.write = redactingWrite(stderr);
  process.stdout.write = argv.includes('--json')
    ? // stdout holds only the envelope: everything else goes to stderr.
      redactingWrite(stderr)
    : redactingWrite(stdout);
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort(new StratosError('STRATOS_RUN_CANCELLED', 'The run was cancelled (SIGINT).'));
  });
  const code = await main(argv, {
    stdout: (text) => stdout(text),
    stderr: (text) => stderr(text),
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
  });
  // Exit once stdout has drained: a workflow's leftover timers or sockets must not keep the CLI alive.
  stdout('', () => process.exit(code));
}

/** A stream write that replaces known secrets in text chunks (a Buffer is decoded as UTF-8 first). */
function redactingWrite(write: typeof process.stdout.write): typeof process.stdout.write {
  return ((chunk: unknown, ...rest: unknown[]) => {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : String(chunk);
    return (write as (chunk: string, ...rest: unknown[]) => boolean)(redactOutputText(text), ...rest);
  }) as typeof process.stdout.write;
}
