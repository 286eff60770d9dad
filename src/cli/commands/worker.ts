/**
 * `stratos worker [--queue <name>] [--concurrency <n>] [--id <id>]`: takes queued runs until stopped. The first
 * SIGINT or SIGTERM stops taking runs and lets the running ones end; a second ends the process at once
 * (run-cli.ts), and the runs it was running are recovered when a worker with the same id starts again.
 */
import {startWorker} from '../../api/queue-worker.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from './command.ts';

export const workerCommand: CommandHandler = async (command, context) => {
  const concurrency = parseConcurrency(command.values.concurrency);
  const queue = typeof command.values.queue === 'string' ? command.values.queue : undefined;
  const id = typeof command.values.id === 'string' ? command.values.id : undefined;
  context.signal.addEventListener(
    'abort',
    () =>
      context.notice(
        'Worker stopped taking runs and waits for its running runs to end; press Ctrl+C again to stop at once.',
      ),
    {once: true},
  );
  const report = await startWorker({
    cwd: context.cwd,
    env: context.env,
    signal: context.signal,
    ...(queue === undefined ? {} : {queue}),
    ...(id === undefined ? {} : {id}),
    ...(concurrency === undefined ? {} : {concurrency}),
    onLog: (level, message) => context.notice(`engine ${level}: ${message}`),
    onReady: (worker) =>
      context.notice(
        `Worker ${worker.id} is taking runs from queue '${worker.queue}' in ${worker.repository}. Press Ctrl+C to stop taking runs, twice to stop at once.`,
      ),
    onRun: (event) =>
      context.notice(
        event.phase === 'started'
          ? `run ${event.runId} (${event.workflow}) started`
          : `run ${event.runId} (${event.workflow}) ${event.ok === true ? 'succeeded' : 'failed'}`,
      ),
  });
  const summary = `${report.started} ${report.started === 1 ? 'run' : 'runs'}: ${report.succeeded} succeeded, ${report.failed} failed`;
  return {
    ok: true,
    message: `Worker ${report.workerId} stopped after ${summary}`,
    data: report,
    warnings: [],
    human: `Worker ${report.workerId} stopped after ${summary}.\n`,
  };
};

function parseConcurrency(value: string | boolean | undefined): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `--concurrency must be a positive whole number; got '${value}'.`,
    );
  }
  return n;
}
