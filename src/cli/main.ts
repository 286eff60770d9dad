/**
 * argv -> command -> api call -> output. The only module that writes stdout/stderr or decides the exit code.
 * In --json mode stdout carries exactly one envelope: everything else the process prints goes to stderr.
 */
import {redactOutputText, redactOutputValue} from '../api/output-redaction.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {formatSuggestions, suggestClosest} from '../internal/edit-distance.ts';
import {packageVersion} from '../internal/package-info.ts';
import type {CommandContext, CommandOutput} from './commands/command.ts';
import {commandGroups, findCommand, listFirstWords, listGroupCommands} from './commands/table.ts';
import {commandHelp, describeCommand, describeGroup, groupHelp, readRootHelp, rootHelp} from './help.ts';
import {failureEnvelope, successEnvelope} from './output/envelope.ts';
import {formatDiagnostic} from './output/format-diagnostic.ts';
import {formatError} from './output/print-error.ts';
import {applyStyles, createPainter, escapeControls} from './output/style.ts';
import {parseCommand} from './parse-command.ts';

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
  const {json, io, paint} = openOutput(argv, cliIo);
  const words = argv.filter((arg) => !arg.startsWith('-'));
  if (words.length === 0 && argv.includes('--version')) {
    io.stdout(
      json
        ? `${JSON.stringify(successEnvelope(packageVersion(), {version: packageVersion()}))}\n`
        : `${packageVersion()}\n`,
    );
    return 0;
  }
  const lookup = argv[0] === 'help' ? argv.slice(1) : argv;
  // Notices already on stderr: a warning that says the same is not printed again at the end.
  const noticed = new Set<string>();
  try {
    if (lookup.every((arg) => rootFlags.includes(arg))) {
      io.stdout(json ? `${JSON.stringify(successEnvelope('Stratos help', readRootHelp()))}\n` : rootHelp());
      return 0;
    }
    const found = findCommand(lookup);
    if (found === undefined) {
      const group = lookup[0]!;
      if (commandGroups[group] !== undefined && lookup.slice(1).every((arg) => rootFlags.includes(arg))) {
        // `stratos mcp` alone is a question about the group: its help, like `stratos` alone prints root help.
        io.stdout(
          json
            ? `${JSON.stringify(successEnvelope(`Help for 'stratos ${group}'`, describeGroup(group)))}\n`
            : groupHelp(group),
        );
        return 0;
      }
      throw unknownCommand(lookup);
    }
    const rest = argv.slice(argv.length - lookup.length + found.consumed);
    if (!found.spec.passThrough && (argv[0] === 'help' || rest.includes('--help') || rest.includes('-h'))) {
      io.stdout(
        json
          ? `${JSON.stringify(successEnvelope(`Help for 'stratos ${found.spec.name}'`, describeCommand(found.spec)))}\n`
          : commandHelp(found.spec),
      );
      return 0;
    }
    const parsed = found.spec.passThrough
      ? {positionals: rest[0] === '--' ? rest.slice(1) : rest, values: {}}
      : parseCommand(found.spec, rest);
    const context: CommandContext = {
      json,
      cwd: io.cwd,
      env: io.env,
      paint,
      signal: io.signal,
      notice: (message) => {
        noticed.add(message);
        io.stderr(`${message}\n`);
      },
      progress: (progress) => {
        if (!json && io.stderrIsTTY && io.env.CI === undefined)
          io.stderr(paint(`${progress.workflow}: ${progress.message}…\n`, 'dim'));
      },
    };
    const handler = await found.spec.load();
    const work = handler(parsed, context);
    const output = found.spec.handlesSignal === true ? await work : await untilCancelled(work, io.signal);
    return render(output, json, io, paint, noticed);
  } catch (error) {
    return renderFailure(error, json, io, paint);
  }
}

/**
 * Prints `error` as the command's failure, the one envelope in --json mode, and returns the exit code (1): for the
 * process shell, when the command fails outside its own flow (an uncaught error no workflow run could take).
 */
export function printFailure(argv: readonly string[], cliIo: CliIo, error: unknown): number {
  const {json, io, paint} = openOutput(argv, cliIo);
  return renderFailure(error, json, io, paint);
}

/** The command's output channels: redacted, control characters escaped in readable text, and its painter. */
function openOutput(
  argv: readonly string[],
  cliIo: CliIo,
): {json: boolean; io: CliIo; paint: ReturnType<typeof createPainter>} {
  // The completion callback gets the words being typed, which may well contain --json.
  const json = argv[0] !== completeCommandName && argv.includes('--json');
  // Every text this command prints passes the redactor the run artifacts use: no resolved secret reaches output.
  // Readable text then has every control character escaped and only after that gets Stratos's own styles, so no
  // escape sequence of untrusted text reaches the terminal (the envelope is JSON, escaped already).
  const readable = (text: string) => applyStyles(escapeControls(redactOutputText(text)));
  const io: CliIo = {
    ...cliIo,
    stdout: (text) => cliIo.stdout(json ? redactOutputText(text) : readable(text)),
    stderr: (text) => cliIo.stderr(readable(text)),
  };
  // One painter styles both streams, so color needs both on a terminal: `stratos list > file` stays plain.
  const paint = createPainter({isTTY: io.stderrIsTTY && io.stdoutIsTTY !== false && !json}, io.env);
  return {json, io, paint};
}

function renderFailure(
  error: unknown,
  json: boolean,
  io: CliIo,
  paint: ReturnType<typeof createPainter>,
): number {
  const stratosError = isStratosError(error)
    ? error
    : new StratosError('STRATOS_INTERNAL', `Unexpected error: ${describeError(error)}`, {
        cause: error,
      });
  if (stratosError.code === 'STRATOS_INTERNAL' && error instanceof Error && error.stack !== undefined) {
    io.stderr(`${error.stack}\n`);
  }
  return render({ok: false, error: stratosError, warnings: []}, json, io, paint);
}

/** What `stratos` alone takes: with only these, it prints the root help. */
const rootFlags = ['--help', '-h', '--json'];
const completeCommandName = '__complete';

/**
 * The usage error for words that name no command, with the closest command (or group action) when one is near:
 * `stratos rum greet` -> `Unknown command 'rum'. Did you mean 'run'?`.
 */
function unknownCommand(lookup: readonly string[]): StratosError {
  const [first, second] = lookup;
  if (first!.startsWith('-')) {
    const suggestions = suggestClosest(first!, [...rootFlags, '--version']);
    return new StratosError(
      'STRATOS_CLI_USAGE',
      `Unknown option '${first}'.${formatSuggestions(suggestions)} Run 'stratos --help' for the commands and options.`,
      {details: {option: first, suggestions}},
    );
  }
  if (commandGroups[first!] !== undefined && second!.startsWith('-')) {
    const suggestions = suggestClosest(second!, rootFlags);
    return new StratosError(
      'STRATOS_CLI_USAGE',
      `Unknown option '${second}' for 'stratos ${first}'.${formatSuggestions(suggestions)} Run 'stratos ${first} --help' for its actions.`,
      {details: {option: second, suggestions}},
    );
  }
  if (commandGroups[first!] !== undefined) {
    const actions = listGroupCommands(first!).map((spec) => spec.name);
    const suggestions = suggestClosest(`${first} ${second}`, actions);
    return new StratosError(
      'STRATOS_CLI_USAGE',
      `Unknown command '${first} ${second}'.${formatSuggestions(suggestions)} Run 'stratos ${first} --help' for its actions.`,
      {details: {command: `${first} ${second}`, suggestions}},
    );
  }
  const suggestions = suggestClosest(first!, listFirstWords());
  return new StratosError(
    'STRATOS_CLI_USAGE',
    `Unknown command '${first}'.${formatSuggestions(suggestions)} Run 'stratos --help' for the list of commands.`,
    {details: {command: first, suggestions}},
  );
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
  noticed: ReadonlySet<string> = new Set(),
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
    // Findings the readable output already shows inline (list, build) or a notice already said are not
    // repeated; the rest go to stderr.
    for (const w of output.warnings) {
      const line = formatDiagnostic(w, paint);
      if (!output.human.includes(line) && !noticed.has(w.message)) io.stderr(`${line}\n`);
    }
    return 0;
  }
  if (output.human !== undefined) io.stderr(output.human);
  io.stderr(formatError(output.error, paint, output.human));
  return 1;
}
