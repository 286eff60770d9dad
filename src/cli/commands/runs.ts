/** `stratos runs list` and `stratos runs show <run>`: recent local runs and one run's tree. */
import {
  describeStatus,
  listRuns,
  type RunSummary,
  type RunTreeNode,
  showRun,
  type TokenUsage,
} from '../../api/runs.ts';
import {formatLocation, StratosError, visibleCauses} from '../../errors/index.ts';
import {formatRelativeTime} from '../output/relative-time.ts';
import type {CommandContext, CommandHandler} from './command.ts';
import {findBudgetHit, formatBudgetEvent} from './runs-budget-hit.ts';
import {formatCostCell, formatNodeCost, formatRunCost} from './runs-cost.ts';

export const runsListCommand: CommandHandler = async (command, context) => {
  const limit = parseLimit(command.values.limit);
  const result = await listRuns({
    cwd: context.cwd,
    env: context.env,
    all: command.values.all === true,
    ...(limit === undefined ? {} : {limit}),
  });
  const count = `${result.runs.length} ${result.runs.length === 1 ? 'run' : 'runs'}`;
  const message = result.total > result.runs.length ? `${count} of ${result.total}` : count;
  const human =
    result.runs.length === 0
      ? `No recorded runs${command.values.all === true ? '' : ' for this directory (try --all)'}.\n`
      : formatRunTable(result.runs, command.values.all === true, context);
  if (typeof command.values.queue === 'string') {
    const {listRunsWithQueued} = await import('./runs-queued.ts');
    return listRunsWithQueued(result, human, command.values.queue, limit, context);
  }
  return {ok: true, message, data: result, warnings: [], human};
};

export const runsShowCommand: CommandHandler = async (command, context) => {
  const target = command.positionals[0];
  if (target === undefined) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      "'stratos runs show' needs a run id, for example 'stratos runs show 20261201T073126123Z-1a2b3c4d5e6f7a8b' or an execution id prefix. Run 'stratos runs list' to see recent runs.",
    );
  }
  const result = await showRun(target, {
    cwd: context.cwd,
    env: context.env,
    console: command.values.console === true,
  }).catch(async (error: unknown) => {
    // A run only the engine's database knows (queued, running elsewhere, or finished on another machine).
    if (!(error instanceof StratosError) || error.code !== 'STRATOS_RUNS_NOT_FOUND') throw error;
    const {showQueuedRun} = await import('./runs-queued.ts');
    const queued = await showQueuedRun(target, context);
    if (queued === undefined) throw error;
    return queued;
  });
  if ('ok' in result) return result;
  const {run} = result;
  const header = [
    `run ${run.runId}`,
    ...(run.resumedFrom === undefined ? [] : [`resumed from ${run.resumedFrom}`]),
    `workflow ${run.workflow}: ${statusText(run, context)}${duration(run.durationMs)}`,
    `started ${run.startedAt} (${formatRelativeTime(run.startedAt, Date.now())})`,
    `directory ${run.directory}`,
    ...(run.error === undefined
      ? []
      : [
          context.paint(
            `error ${run.error.code}: ${run.error.message}${run.error.location === undefined ? '' : ` (at ${formatLocation(run.error.location)})`}`,
            'red',
          ),
        ]),
    ...(Object.keys(result.usage).length === 0 ? [] : [`tokens ${usageText(result.usage)}`]),
    ...formatRunCost(run.cost, context, findBudgetHit(result.tree)),
    ...(result.unreadableEvents > 0
      ? [context.paint(`${result.unreadableEvents} unreadable event lines`, 'yellow')]
      : []),
  ];
  const tree = result.tree.flatMap((node) =>
    renderNode(node, '', true, true, {context, runError: run.error}),
  );
  return {
    ok: true,
    message: `Run ${run.runId}: ${run.status}`,
    data: result,
    warnings: [],
    human: `${header.join('\n')}\n\n${tree.join('\n')}\n`,
  };
};

/** One row per run under a header row; the columns padded to their widest cell, colour added after padding. */
function formatRunTable(runs: readonly RunSummary[], all: boolean, context: CommandContext): string {
  const now = Date.now();
  const header = [
    'RUN',
    'WORKFLOW',
    'STATUS',
    'STARTED',
    'DURATION',
    'COST',
    'ERROR',
    ...(all ? ['DIRECTORY'] : []),
  ];
  const rows = runs.map((run) => [
    run.runId,
    run.workflow,
    (run.stale ? 'failed (interrupted)' : run.status) + (run.resumedFrom === undefined ? '' : ' (resumed)'),
    formatRelativeTime(run.startedAt, now),
    duration(run.durationMs).trim(),
    formatCostCell(run.cost),
    run.error?.code ?? (run.stale ? 'STRATOS_RUN_INTERRUPTED' : ''),
    ...(all ? [run.invocationDirectory] : []),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[], paintCell: (cell: string, column: number) => string) =>
    cells
      .map((cell, column) =>
        paintCell(column === cells.length - 1 ? cell : cell.padEnd(widths[column]!), column),
      )
      .join('  ')
      .trimEnd();
  return `${[
    line(header, (cell) => context.paint(cell, 'dim')),
    ...rows.map((row) =>
      line(row, (cell, column) =>
        column === 2 ? paintStatus(row[2]!, context, cell) : column === 7 ? context.paint(cell, 'dim') : cell,
      ),
    ),
  ].join('\n')}\n`;
}

interface RenderScope {
  context: CommandContext;
  /** The run's error, shown in the header: the tree names only its code where it happened. */
  runError: RunSummary['error'];
}

function renderNode(
  node: RunTreeNode,
  indent: string,
  last: boolean,
  top: boolean,
  scope: RenderScope,
): string[] {
  const {context} = scope;
  const branch = top ? '' : last ? '└─ ' : '├─ ';
  const label =
    node.kind === 'workflow'
      ? `workflow ${node.name} ${context.paint(node.executionId.slice(0, 8), 'dim')}`
      : (formatBudgetEvent(node, context) ?? `${node.kind} ${node.label ?? node.name}`);
  const status =
    node.kind === 'event'
      ? ''
      : node.status === undefined
        ? context.paint(' (no end recorded)', 'yellow')
        : ` ${paintStatus(describeStatus(node.status), context)}${duration(node.durationMs)}`;
  const usage = `${node.usage === undefined ? '' : `  tokens ${usageText(node.usage)}`}${formatNodeCost(node.attributes)}`;
  const logs =
    node.consoleMessages > 0 && node.console === undefined
      ? context.paint(`  ${node.consoleMessages} console`, 'dim')
      : '';
  const childIndent = top ? indent : `${indent}${last ? '   ' : '│  '}`;
  const detailIndent = `${childIndent}${node.children.length > 0 ? '│  ' : '   '}`;
  const [failure, causes] = errorText(node, scope);
  const lines = [`${indent}${branch}${label}${status}${usage}${failure}${logs}`];
  for (const cause of causes) lines.push(`${detailIndent}${context.paint(cause, 'red')}`);
  for (const entry of node.console ?? []) {
    const text = `${entry.level.padEnd(5)} ${entry.message}`.replace(/\n/g, `\n${detailIndent}      `);
    lines.push(`${detailIndent}${context.paint(text, entry.level === 'error' ? 'yellow' : 'dim')}`);
  }
  if (node.kind === 'decision') {
    for (const answer of decisionAnswerLines(node.attributes)) lines.push(`${detailIndent}${answer}`);
  }
  node.children.forEach((child, index) => {
    lines.push(...renderNode(child, childIndent, index === node.children.length - 1, false, scope));
  });
  return lines;
}

/**
 * A node's error, once: nothing on an ancestor that only passed it on (`errorFrom`), only the code where the
 * run's own error happened (the header says the rest), else its first line and location; then its causes.
 */
function errorText(node: RunTreeNode, scope: RenderScope): [string, string[]] {
  const {error} = node;
  if (error === undefined || node.errorFrom !== undefined) return ['', []];
  const {runError} = scope;
  const isRunError =
    runError !== undefined && error.code === runError.code && error.message === runError.message;
  const where = error.location === undefined || isRunError ? '' : ` (at ${formatLocation(error.location)})`;
  const label = error.code ?? error.type ?? 'error';
  const text = isRunError ? `  ${label}` : `  ${label}: ${firstLine(error.message)}${where}`;
  const causes = visibleCauses(error.message, error.causes ?? []).map(
    (cause) => `Caused by: ${[cause.code, firstLine(cause.message)].filter((part) => part).join(': ')}`,
  );
  return [scope.context.paint(text, 'red'), causes];
}

/** `name: answer (distribution)` for each answer a decision span recorded; nothing when it recorded none. */
function decisionAnswerLines(attributes: Record<string, unknown> | undefined): string[] {
  const recorded = attributes?.['stratos.decision.answers'];
  if (typeof recorded !== 'string') return [];
  let answers: Record<
    string,
    {type?: string; choice?: string; score?: number; noul?: number; probabilities?: unknown}
  >;
  try {
    answers = JSON.parse(recorded);
  } catch {
    return [];
  }
  const p = (value: unknown) => (typeof value === 'number' ? value.toFixed(3) : '?');
  return Object.entries(answers).map(([name, answer]) => {
    if (
      answer.type === 'choice' &&
      typeof answer.probabilities === 'object' &&
      answer.probabilities !== null
    ) {
      const spread = Object.entries(answer.probabilities).map(([option, value]) => `${option} ${p(value)}`);
      return `${name}: ${answer.choice} (${spread.join(', ')})`;
    }
    if (answer.type === 'score' && Array.isArray(answer.probabilities)) {
      return `${name}: ${p(answer.score)} (${answer.probabilities.map((value, level) => `${level} ${p(value)}`).join(', ')})`;
    }
    return `${name}: ${p(answer.noul)}`;
  });
}

function statusText(run: RunSummary, context: CommandContext): string {
  return run.stale ? context.paint('failed (interrupted)', 'red') : paintStatus(run.status, context);
}

/** `status` (a run's word) in its colour; `text` is what is shown, when padded. */
function paintStatus(status: string, context: CommandContext, text = status): string {
  if (status === 'succeeded') return context.paint(text, 'green');
  if (status.startsWith('failed')) return context.paint(text, 'red');
  return context.paint(text, 'yellow');
}

function duration(ms: number | undefined): string {
  return ms === undefined ? '' : ` ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

function usageText(usage: TokenUsage): string {
  return `in ${usage.inputTokens ?? 'unknown'}, out ${usage.outputTokens ?? 'unknown'}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function parseLimit(value: string | boolean | undefined): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new StratosError('STRATOS_CLI_USAGE', `--limit must be a positive whole number; got '${value}'.`);
  }
  return limit;
}
