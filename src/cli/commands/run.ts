import {resolve} from 'node:path';
import {type RunWorkflowResult, runWorkflow} from '../../api/run-workflow.ts';
import {StratosError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import {FileTooLargeError, NotRegularFileError, readRegularFile} from '../../internal/regular-file.ts';
import type {CommandHandler, CommandOutput} from './command.ts';
import {requireTarget} from './require-target.ts';

export const runCommand: CommandHandler = async (command, context) => {
  const target = requireTarget(command, 'run');
  const input = parseInput(...(await readInputText(command.values, context.cwd, context.signal)));
  if (command.values.queue !== undefined) {
    const {runQueuedCommand} = await import('./run-queued.ts');
    return runQueuedCommand(target, input, command, context);
  }
  if (command.values.wait === true) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      '--wait waits for a queued run; pass it with --queue [<name>].',
    );
  }
  const result = await runWorkflow(target, input, {
    cwd: context.cwd,
    env: context.env,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
    budget: {
      usd: stringValue(command.values['budget-usd']),
      tokens: stringValue(command.values['budget-tokens']),
    },
  });
  return describeRunResult(result, command.values.verbose === true);
};

/** What a run's envelope holds: the facts of a local run, or of a queued one its worker returned. */
export type RunOutcome = Pick<
  RunWorkflowResult,
  'executionId' | 'workflow' | 'startedAt' | 'durationMs' | 'runDirectory' | 'warnings' | 'cleanupFailures'
> &
  ({ok: true; output: unknown} | {ok: false; error: StratosError});

/** The envelope of a finished run, the same for a local run and a queued run waited for (`--wait`). */
export function describeRunResult(
  result: RunOutcome,
  verbose: boolean,
  extra: Record<string, unknown> = {},
): CommandOutput {
  const facts = {
    ...extra,
    executionId: result.executionId,
    workflow: result.workflow,
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    ...(result.runDirectory === undefined ? {} : {runDirectory: result.runDirectory}),
  };
  // Cleanup failures never replace the result: warnings beside a success, attached to the error of a failure.
  const cleanup = result.cleanupFailures.map((f) => ({
    code: f.error.code,
    severity: 'warning' as const,
    message: f.error.message,
  }));
  if (!result.ok) {
    const stack = verbose ? stackOf(result.error) : undefined;
    const error = new StratosError(result.error.code, result.error.message, {
      cause: result.error.cause,
      location: result.error.location,
      details: {
        ...(result.error.details ?? {}),
        ...facts,
        ...(stack === undefined ? {} : {stack}),
        ...(cleanup.length === 0 ? {} : {cleanupFailures: cleanup}),
      },
    });
    return {ok: false, error, warnings: result.warnings};
  }
  const warnings = [...result.warnings, ...cleanup];
  return {
    ok: true,
    message: `Workflow '${result.workflow}' succeeded in ${result.durationMs} ms`,
    data: {...facts, output: result.output},
    warnings,
    human: `${JSON.stringify(result.output, null, 2)}\n`,
  };
}

function stringValue(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The stack of the innermost error of the chain (the one thrown first), as the run mapped it to the sources. */
function stackOf(error: Error): string | undefined {
  let stack = error.stack;
  let current: unknown = error.cause;
  for (let depth = 0; depth < 10 && current instanceof Error; depth++) {
    stack = current.stack ?? stack;
    current = current.cause;
  }
  return stack;
}

/**
 * The most input `--input -` (stdin) and `--input-file` read: 64 MiB, room for large inputs (tens of megabytes
 * pass) and far below what a JavaScript string can hold. Reading stops as soon as it is passed, so an endless
 * source (`yes '{}' |`) fails fast instead of filling memory. docs/cli.md documents it.
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * The input text and where it came from: `--input <json>`, `--input -` (stdin) or `--input-file <path>`, so a
 * large input never has to fit the OS argument limit. At most one of them.
 */
async function readInputText(
  values: Record<string, string | boolean | undefined>,
  cwd: string,
  signal: AbortSignal,
): Promise<[string | undefined, string]> {
  const inline = typeof values.input === 'string' ? values.input : undefined;
  const file = typeof values['input-file'] === 'string' ? values['input-file'] : undefined;
  if (inline !== undefined && file !== undefined) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      "Pass the input once: --input '<json>', --input - (stdin) or --input-file <path>, not both --input and --input-file.",
    );
  }
  if (inline === '-') return [await readStdin(signal), 'The input read from stdin'];
  if (file === undefined) return [inline, '--input'];
  const path = resolve(cwd, file);
  try {
    return [readRegularFile(path, {maxBytes: MAX_INPUT_BYTES}).toString('utf8'), `The input file ${path}`];
  } catch (error) {
    if (error instanceof FileTooLargeError) throw inputTooLarge(`The input file ${path}`, {path});
    const reason =
      error instanceof NotRegularFileError
        ? `is ${error.kind}, not a regular file. Pass a regular file to --input-file, or pipe the input to --input -`
        : `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Check the path passed to --input-file`;
    throw new StratosError('STRATOS_INPUT_FILE_UNREADABLE', `The input file ${path} ${reason}.`, {
      cause: error,
      details: {path},
    });
  }
}

/**
 * Stdin up to MAX_INPUT_BYTES; the stream is destroyed as soon as more arrives. The first SIGINT or SIGTERM ends
 * the wait (a terminal that never sends end-of-file).
 */
async function readStdin(signal: AbortSignal): Promise<string> {
  const {addAbortSignal} = await import('node:stream');
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of addAbortSignal(signal, process.stdin) as AsyncIterable<Buffer>) {
      total += chunk.length;
      // Leaving the loop destroys the stream: nothing more is read.
      if (total > MAX_INPUT_BYTES) throw inputTooLarge('The input read from stdin', {});
      chunks.push(chunk);
    }
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function inputTooLarge(source: string, details: Record<string, unknown>): StratosError {
  const limit = `${MAX_INPUT_BYTES / (1024 * 1024)} MiB`;
  return new StratosError(
    'STRATOS_INPUT_TOO_LARGE',
    `${source} is over the ${limit} input limit; Stratos stopped reading it. Pass a smaller input object, and let the workflow read large data from files it is given paths to.`,
    {details: {...details, limit: MAX_INPUT_BYTES}},
  );
}

function parseInput(text: string | undefined, source: string): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StratosError(
      'STRATOS_INPUT_JSON_INVALID',
      `${source} is not valid JSON: ${describeError(error)}. Pass one object, for example --input '{"repo":"org/repo"}'.`,
      {cause: error},
    );
  }
}
