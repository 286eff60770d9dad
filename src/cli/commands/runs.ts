/** `stratos runs list` and `stratos runs show <run>`: recent local runs and one run's tree. */
import {listRuns, type RunSummary, type RunTreeNode, showRun, type TokenUsage} from '../../api/runs.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandContext, CommandHandler} from '../command.ts';

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
  const lines = result.runs.map((run) => {
    const status = statusText(run, context);
    const where = command.values.all === true ? `  ${context.paint(run.invocationDirectory, 'dim')}` : '';
    return `${run.runId}  ${run.workflow}  ${status}${duration(run.durationMs)}${where}`;
  });
  const human =
    result.runs.length === 0
      ? `No recorded runs${command.values.all === true ? '' : ' for this directory (try --all)'}.\n`
      : `${lines.join('\n')}\n`;
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
  const result = await showRun(target, {cwd: context.cwd, env: context.env});
  const {run} = result;
  const header = [
    `run ${run.runId}`,
    `workflow ${run.workflow}: ${statusText(run, context)}${duration(run.durationMs)}`,
    `directory ${run.directory}`,
    ...(run.error === undefined
      ? []
      : [context.paint(`error ${run.error.code}: ${run.error.message}`, 'red')]),
    ...(Object.keys(result.usage).length === 0 ? [] : [`tokens ${usageText(result.usage)}`]),
    ...(result.unreadableEvents > 0
      ? [context.paint(`${result.unreadableEvents} unreadable event lines`, 'yellow')]
      : []),
  ];
  const tree = result.tree.flatMap((node) => renderNode(node, '', true, true, context));
  return {
    ok: true,
    message: `Run ${run.runId}: ${run.status}`,
    data: result,
    warnings: [],
    human: `${header.join('\n')}\n\n${tree.join('\n')}\n`,
  };
};

function renderNode(
  node: RunTreeNode,
  indent: string,
  last: boolean,
  top: boolean,
  context: CommandContext,
): string[] {
  const branch = top ? '' : last ? '└─ ' : '├─ ';
  const label =
    node.kind === 'workflow'
      ? `workflow ${node.name} ${context.paint(node.executionId.slice(0, 8), 'dim')}`
      : `${node.kind} ${node.name}`;
  const status =
    node.kind === 'event'
      ? ''
      : node.status === undefined
        ? context.paint(' (no end recorded)', 'yellow')
        : ` ${paintStatus(node.status, context)}${duration(node.durationMs)}`;
  const usage = node.usage === undefined ? '' : `  tokens ${usageText(node.usage)}`;
  const failure =
    node.error === undefined
      ? ''
      : context.paint(
          `  ${node.error.code ?? node.error.type ?? 'error'}: ${firstLine(node.error.message)}`,
          'red',
        );
  const logs = node.consoleMessages > 0 ? context.paint(`  ${node.consoleMessages} console`, 'dim') : '';
  const lines = [`${indent}${branch}${label}${status}${usage}${failure}${logs}`];
  const childIndent = top ? indent : `${indent}${last ? '   ' : '│  '}`;
  if (node.kind === 'decision') {
    const answerIndent = `${childIndent}${node.children.length > 0 ? '│  ' : '   '}`;
    for (const answer of decisionAnswerLines(node.attributes)) lines.push(`${answerIndent}${answer}`);
  }
  node.children.forEach((child, index) => {
    lines.push(...renderNode(child, childIndent, index === node.children.length - 1, false, context));
  });
  return lines;
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

function paintStatus(status: string, context: CommandContext): string {
  if (status === 'ok' || status === 'succeeded') return context.paint(status, 'green');
  if (status === 'error' || status === 'failed') return context.paint(status, 'red');
  return context.paint(status, 'yellow');
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
