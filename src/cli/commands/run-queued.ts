/** `stratos run <workflow> --queue [<name>] [--wait]`: enqueue for a worker, or enqueue and wait for the result. */
import {enqueueRun} from '../../api/queued-runs.ts';
import {type Diagnostic, type ErrorCode, StratosError} from '../../errors/index.ts';
import type {CommandContext, CommandOutput, ParsedCommand} from './command.ts';
import {describeRunResult} from './run.ts';

export async function runQueuedCommand(
  target: string,
  input: unknown,
  command: ParsedCommand,
  context: CommandContext,
): Promise<CommandOutput> {
  const queue = typeof command.values.queue === 'string' ? command.values.queue : undefined;
  const wait = command.values.wait === true;
  const queued = await enqueueRun(target, input, {
    cwd: context.cwd,
    env: context.env,
    ...(queue === undefined ? {} : {queue}),
    wait,
    signal: context.signal,
  });
  const {result} = queued;
  if (result === undefined) {
    return {
      ok: true,
      message: `Queued run ${queued.runId} of '${queued.workflow}' on queue '${queued.queue}'`,
      data: {runId: queued.runId, queue: queued.queue, workflow: queued.workflow},
      warnings: [],
      human: `${queued.runId}\n`,
    };
  }
  const facts = {
    executionId: result.executionId ?? '',
    workflow: result.workflow,
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    ...(result.runDirectory === undefined ? {} : {runDirectory: result.runDirectory}),
    // Codes the worker's Stratos reported: the same table, the same version (the engine's application version).
    warnings: result.warnings as Diagnostic[],
    cleanupFailures: [],
  };
  const extra = {runId: queued.runId, queue: queued.queue, worker: result.worker};
  const verbose = command.values.verbose === true;
  if (result.ok) return describeRunResult({...facts, ok: true, output: result.output ?? {}}, verbose, extra);
  const recorded = result.error ?? {
    code: 'STRATOS_QUEUE_RUN_FAILED',
    message: 'The worker returned no error.',
  };
  const error = new StratosError(recorded.code as ErrorCode, recorded.message, {
    ...(recorded.details === undefined ? {} : {details: recorded.details}),
    ...(recorded.location === undefined ? {} : {location: recorded.location as never}),
  });
  return describeRunResult({...facts, ok: false, error}, verbose, extra);
}
