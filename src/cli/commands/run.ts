import {runWorkflow} from '../../api/run-workflow.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from '../command.ts';
import {requireTarget} from './require-target.ts';

export const runCommand: CommandHandler = async (command, context) => {
  const target = requireTarget(command, 'run');
  const input = parseInput(command.values.input);
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
  const cleanup = result.cleanupFailures.map((f) => ({
    code: 'STRATOS_INTERNAL' as const,
    severity: 'warning' as const,
    message: `Cleanup of ${f.label} failed: ${f.error instanceof Error ? f.error.message : String(f.error)}`,
  }));
  const warnings = [...result.warnings, ...cleanup];
  if (!result.ok) {
    const error = new StratosError(result.error.code, result.error.message, {
      cause: result.error.cause,
      location: result.error.location,
      details: {...(result.error.details ?? {}), ...facts},
    });
    return {ok: false, error, warnings};
  }
  return {
    ok: true,
    message: `Workflow '${result.workflow}' succeeded in ${result.durationMs} ms`,
    data: {...facts, output: result.output},
    warnings,
    human: `${JSON.stringify(result.output, null, 2)}\n`,
  };
};

function parseInput(text: string | boolean | undefined): unknown {
  if (text === undefined || typeof text === 'boolean') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StratosError(
      'STRATOS_INPUT_JSON_INVALID',
      `--input is not valid JSON: ${error instanceof Error ? error.message : String(error)}. Pass one object, for example --input '{"repo":"org/repo"}'.`,
      {cause: error},
    );
  }
}
