/** `stratos runs list --queue` and `stratos runs show` of a queued run: the engine's database beside local runs. */

import {findQueuedRun, listQueuedRuns, type QueuedRunRecord} from '../../api/queued-runs.ts';
import type {listRuns} from '../../api/runs.ts';
import {formatRelativeTime} from '../output/relative-time.ts';
import type {CommandContext, CommandOutput} from './command.ts';

/** Local runs as `runs list` shows them, then the engine's runs (of one queue when named). */
export async function listRunsWithQueued(
  local: Awaited<ReturnType<typeof listRuns>>,
  localText: string,
  queue: string,
  limit: number | undefined,
  context: CommandContext,
): Promise<CommandOutput> {
  const queued = await listQueuedRuns({
    cwd: context.cwd,
    env: context.env,
    ...(queue === '' ? {} : {queue}),
    ...(limit === undefined ? {} : {limit}),
  });
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    ok: true,
    message: `${count(local.runs.length, 'local run')}, ${count(queued.length, 'queued run')}`,
    data: {...local, queued},
    warnings: [],
    human: `${localText}\n${queued.length === 0 ? `No queued runs${queue === '' ? '' : ` on queue '${queue}'`}.\n` : formatQueuedTable(queued, context)}`,
  };
}

/** `runs show <id>` of a run that only the engine's database knows, or undefined when it does not either. */
export async function showQueuedRun(
  runId: string,
  context: CommandContext,
): Promise<CommandOutput | undefined> {
  const run = await findQueuedRun(runId, {cwd: context.cwd, env: context.env});
  if (run === undefined) return undefined;
  const lines = [
    `queued run ${run.runId}`,
    `workflow ${run.workflow ?? 'unknown'}: ${run.status} (queue ${run.queue})`,
    `enqueued ${run.createdAt} (${formatRelativeTime(run.createdAt, Date.now())})`,
    ...(run.worker === undefined ? [] : [`worker ${run.worker}`]),
    ...(run.result?.executionId === undefined ? [] : [`execution ${run.result.executionId}`]),
    ...(run.result?.runDirectory === undefined
      ? []
      : [`directory ${run.result.runDirectory} (on the worker)`]),
    ...(run.result?.error === undefined
      ? []
      : [context.paint(`error ${run.result.error.code}: ${run.result.error.message}`, 'red')]),
  ];
  const output = run.result?.output === undefined ? '' : `\n${JSON.stringify(run.result.output, null, 2)}\n`;
  return {
    ok: true,
    message: `Queued run ${run.runId}: ${run.status}`,
    data: {queued: run},
    warnings: [],
    human: `${lines.join('\n')}\n${output}`,
  };
}

function formatQueuedTable(runs: readonly QueuedRunRecord[], context: CommandContext): string {
  const now = Date.now();
  const header = ['QUEUED RUN', 'QUEUE', 'WORKFLOW', 'STATUS', 'ENQUEUED', 'WORKER', 'ERROR'];
  const rows = runs.map((run) => [
    run.runId,
    run.queue,
    run.workflow ?? '',
    run.status,
    formatRelativeTime(run.createdAt, now),
    run.worker ?? '',
    run.result?.error?.code ?? '',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return `${[context.paint(line(header), 'dim'), ...rows.map(line)].join('\n')}\n`;
}
