/** How `stratos runs list` and `runs show` print what a run spent: the cost column, the breakdown, a node's cost. */
import type {RunTreeNode} from '../../api/runs.ts';
import type {RunCost, SpendTotals} from '../../telemetry/index.ts';
import type {CommandContext} from './command.ts';

/** `$0.0123`, with `+?` when some calls' cost is unknown; empty for a run that recorded no cost. */
export function formatCostCell(cost: SpendTotals | undefined): string {
  if (cost === undefined || cost.calls === 0) return '';
  return `${formatUsd(cost.usd)}${cost.unknownCostCalls > 0 ? '+?' : ''}`;
}

/** Dollars with four decimals (a hundredth of a cent), or more when smaller and not zero. */
export function formatUsd(usd: number): string {
  return `$${usd !== 0 && usd < 0.0001 ? usd.toPrecision(2) : usd.toFixed(4)}`;
}

/** The header lines and the per-agent, per-model table of `runs show`; `hit` marks the row that hit a budget. */
export function formatRunCost(
  cost: RunCost | undefined,
  context: CommandContext,
  hit?: RunTreeNode,
): string[] {
  if (cost === undefined || (cost.calls === 0 && cost.budget === undefined)) return [];
  const unknown =
    cost.unknownCostCalls > 0 ? ` (${cost.unknownCostCalls} calls of unknown cost not included)` : '';
  const native = cost.nativeUsd === undefined ? '' : `; harness-reported ${formatUsd(cost.nativeUsd)}`;
  const lines = [
    `cost ${formatUsd(cost.usd)}${unknown}, ${cost.tokens} tokens in ${cost.calls} calls${native}`,
  ];
  if (cost.budget !== undefined) {
    const parts = [
      ...(cost.budget.usd === undefined ? [] : [`${formatUsd(cost.budget.usd)}`]),
      ...(cost.budget.tokens === undefined ? [] : [`${cost.budget.tokens} tokens`]),
    ];
    lines.push(`budget ${parts.join(', ')}`);
  }
  if (cost.budgetExceeded !== undefined) {
    const hit = cost.budgetExceeded;
    const figure = (n: number) => (hit.unit === 'usd' ? formatUsd(n) : `${n} tokens`);
    lines.push(
      context.paint(
        `budget exceeded: workflow ${hit.workflow} spent ${figure(hit.spent)} of ${figure(hit.limit)} at ${hit.subject}`,
        'red',
      ),
    );
  }
  if (cost.breakdown.length === 0) return lines;
  const header = [
    'WORKFLOW',
    'AGENT/DECISION',
    'HARNESS',
    'PROVIDER',
    'MODEL',
    'CALLS',
    'IN',
    'OUT',
    'CACHED',
    'COST',
  ];
  const rows = cost.breakdown.map((row) => [
    row.workflow,
    `${row.source === 'decision' ? 'decision ' : ''}${row.name}`,
    row.harness ?? '',
    row.provider ?? '',
    row.model ?? '',
    String(row.calls),
    String(row.inputTokens),
    String(row.outputTokens),
    String(row.cacheReadInputTokens),
    row.unknownCostCalls === row.calls ? 'unknown' : formatCostCell(row),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const marked = (row: string[], index: number) =>
    isBudgetHitRow(cost.breakdown[index]!, hit)
      ? `${line(row)}  ${context.paint('<- hit the budget', 'red')}`
      : line(row);
  return [...lines, '', context.paint(line(header), 'dim'), ...rows.map(marked)];
}

/** A node's cost in the tree: `$0.0012`, `cost unknown`, or nothing when it recorded none. */
export function formatNodeCost(attributes: Record<string, unknown> | undefined): string {
  const usd = attributes?.['stratos.cost.usd'];
  if (typeof usd === 'number') return `  ${formatUsd(usd)}`;
  return typeof attributes?.['stratos.cost.unknown'] === 'string' ? '  cost unknown' : '';
}

/** Whether a breakdown row (`agent claude` in its invocation) is the node's. */
export function isBudgetHitRow(
  row: {executionId: string; source: string; name: string},
  hit: RunTreeNode | undefined,
): boolean {
  return hit !== undefined && row.executionId === hit.executionId && hit.name === `${row.source} ${row.name}`;
}
