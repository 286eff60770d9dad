/**
 * argv -> command -> api call -> output. The only module that writes stdout/stderr or decides the exit code.
 * In --json mode stdout carries exactly one envelope: everything else the process prints goes to stderr.
 */
import {parseArgs} from 'node:util';
import {redactOutputText, redactOutputValue} from '../api/output-redaction.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {packageVersion} from '../internal/package-info.ts';
import type {CommandContext, CommandOutput, CommandSpec, ParsedCommand} from './command.ts';
import {findCommand} from './commands/table.ts';
import {commandHelp, rootHelp} from './help.ts';
import {failureEnvelope, successEnvelope} from './output/envelope.ts';
import {formatDiagnostic} from './output/format-diagnostic.ts';
import {formatError} from './output/print-error.ts';
import {createPainter, escapeControls} from './output/style.ts';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTTY: boolean;
  /** False when stdout is a pipe or file: readable output then carries no escape codes. */
  stdoutIsTTY?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/** Runs one CLI command and returns its exit code: 0 on success or warnings only, 1 on failure. */
export async function main(argv: readonly string[], cliIo: CliIo): Promise<number> {
  const json = argv.includes('--json');
  // Every text this command prints passes the redactor the run artifacts use: no resolved secret reaches output.
  // Readable text also has its control characters escaped (the envelope is JSON, escaped already).
  const io: CliIo = {
    ...cliIo,
    stdout: (text) => cliIo.stdout(json ? redactOutputText(text) : escapeControls(redactOutputText(text))),
    stderr: (text) => cliIo.stderr(escapeControls(redactOutputText(text))),
  };
  // One painter styles both streams, so color needs both on a terminal: `stratos list > file` stays plain.
  const paint = createPainter({isTTY: io.stderrIsTTY && io.stdoutIsTTY !== false && !json}, io.env);
  const words = argv.filter((arg) => !arg.startsWith('-'));
  if (argv.length === 0 || (words.length === 0 && (argv.includes('--help') || argv.includes('-h')))) {
    io.stdout(rootHelp());
    return 0;
  }
  if (words.length === 0 && argv.includes('--version')) {
    io.stdout(
      json
        ? `${JSON.stringify(successEnvelope(packageVersion(), {version: packageVersion()}))}\n`
        : `${packageVersion()}\n`,
    );
    return 0;
  }
  const found = findCommand(argv[0] === 'help' ? argv.slice(1) : argv);
  try {
    if (found === undefined) {
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `Unknown command '${argv.filter((a) => !a.startsWith('-')).join(' ') || argv.join(' ')}'. Run 'stratos --help' for the list of commands.`,
      );
    }
    const rest = argv.slice(found.consumed);
    if (argv[0] === 'help' || rest.includes('--help') || rest.includes('-h')) {
      io.stdout(commandHelp(found.spec));
      return 0;
    }
    const parsed = parseCommand(found.spec, rest);
    const context: CommandContext = {
      json,
      cwd: io.cwd,
      env: io.env,
      paint,
      signal: io.signal,
      notice: (message) => io.stderr(`${message}\n`),
      progress: (progress) => {
        if (!json && io.stderrIsTTY && io.env.CI === undefined)
          io.stderr(paint(`${progress.workflow}: ${progress.message}…\n`, 'dim'));
      },
    };
    const handler = await found.spec.load();
    const work = handler(parsed, context);
    const output = found.spec.handlesSignal === true ? await work : await untilCancelled(work, io.signal);
    return render(output, json, io, paint);
  } catch (error) {
    const stratosError = isStratosError(error)
      ? error
      : new StratosError(
          'STRATOS_INTERNAL',
          `Unexpected error: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
    if (stratosError.code === 'STRATOS_INTERNAL' && error instanceof Error && error.stack !== undefined) {
      io.stderr(`${error.stack}\n`);
    }
    return render({ok: false, error: stratosError, warnings: []}, json, io, paint);
  }
}

/**
 * The command's output, or its failure with the signal's reason (STRATOS_RUN_CANCELLED) as soon as the first
 * SIGINT or SIGTERM arrives: for commands whose work owns nothing that must be stopped first (reads, requests).
 */
function untilCancelled(work: Promise<CommandOutput>, signal: AbortSignal): Promise<CommandOutput> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<CommandOutput>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, {once: true});
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function render(
  output: CommandOutput,
  json: boolean,
  io: CliIo,
  paint: ReturnType<typeof createPainter>,
): number {
  if (json) {
    const envelope = output.ok
      ? successEnvelope(output.message, output.data, output.warnings)
      : failureEnvelope(output.error, output.warnings);
    // Redacted as a value first: a secret's JSON escaping would otherwise hide it from the text redaction.
    io.stdout(`${JSON.stringify(redactOutputValue(envelope))}\n`);
    return output.ok ? 0 : 1;
  }
  if (output.ok) {
    io.stdout(output.human);
    // Findings the readable output already shows inline (list, build) are not repeated; the rest go to stderr.
    for (const w of output.warnings) {
      const line = formatDiagnostic(w, paint);
      if (!output.human.includes(line)) io.stderr(`${line}\n`);
    }
    return 0;
  }
  if (output.human !== undefined) io.stderr(output.human);
  io.stderr(formatError(output.error, paint));
  return 1;
}

function parseCommand(spec: CommandSpec, args: string[]): ParsedCommand {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, option]) => [
      name,
      option.short === undefined ? {type: option.type} : {type: option.type, short: option.short},
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({args, options, allowPositionals: true, strict: true, tokens: true});
  } catch (error) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `${error instanceof Error ? error.message : String(error)} Usage: ${spec.usage}`,
      {cause: error},
    );
  }
  // A value option given twice would silently keep the last one: say so instead.
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || spec.options[token.name]?.type !== 'string') continue;
    if (seen.has(token.name)) {
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `--${token.name} was given more than once; pass it once. Usage: ${spec.usage}`,
      );
    }
    seen.add(token.name);
  }
  if (parsed.positionals.length > spec.positionals.length) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `Too many arguments for 'stratos ${spec.name}': ${parsed.positionals.join(' ')}. Usage: ${spec.usage}`,
    );
  }
  const target = parsed.positionals[0];
  const name = parsed.values.name;
  if (target !== undefined && typeof name === 'string' && name !== target) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `The target '${target}' and --name '${name}' differ; they mean the same thing, so pass one of them.`,
    );
  }
  return {positionals: parsed.positionals, values: parsed.values as ParsedCommand['values']};
}
