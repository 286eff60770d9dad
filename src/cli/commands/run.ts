import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {runWorkflow} from '../../api/run-workflow.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from '../command.ts';
import {requireTarget} from './require-target.ts';

export const runCommand: CommandHandler = async (command, context) => {
  const target = requireTarget(command, 'run');
  const input = parseInput(...(await readInputText(command.values, context.cwd)));
  const result = await runWorkflow(target, input, {
    cwd: context.cwd,
    env: context.env,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
  });
  const facts = {
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
    const error = new StratosError(result.error.code, result.error.message, {
      cause: result.error.cause,
      location: result.error.location,
      details: {
        ...(result.error.details ?? {}),
        ...facts,
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
};

/**
 * The input text and where it came from: `--input <json>`, `--input -` (stdin) or `--input-file <path>`, so a
 * large input never has to fit the OS argument limit. At most one of them.
 */
async function readInputText(
  values: Record<string, string | boolean | undefined>,
  cwd: string,
): Promise<[string | undefined, string]> {
  const inline = typeof values.input === 'string' ? values.input : undefined;
  const file = typeof values['input-file'] === 'string' ? values['input-file'] : undefined;
  if (inline !== undefined && file !== undefined) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      "Pass the input once: --input '<json>', --input - (stdin) or --input-file <path>, not both --input and --input-file.",
    );
  }
  if (inline === '-') {
    // Loaded only for stdin input: `--input '<json>'` and `--input-file` never need it.
    const {text} = await import('node:stream/consumers');
    return [await text(process.stdin), 'The input read from stdin'];
  }
  if (file === undefined) return [inline, '--input'];
  const path = resolve(cwd, file);
  try {
    return [await readFile(path, 'utf8'), `The input file ${path}`];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new StratosError(
      'STRATOS_INPUT_FILE_UNREADABLE',
      `The input file ${path} cannot be read (${code}). Check the path passed to --input-file.`,
      {cause: error, details: {path}},
    );
  }
}

function parseInput(text: string | undefined, source: string): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StratosError(
      'STRATOS_INPUT_JSON_INVALID',
      `${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}. Pass one object, for example --input '{"repo":"org/repo"}'.`,
      {cause: error},
    );
  }
}
