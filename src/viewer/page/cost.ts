/**
 * The Cost section of a run's details (the top-level workflow): what the run and its descendants spent, its
 * budget, the budget it hit with a link to the call that hit it, and one row per invocation, agent or decision,
 * harness, provider and model. An unknown cost is said as unknown, never shown as $0 (docs/cost.md).
 */
import {element} from './dom.ts';
import type {RunCost, RunDetail, SpendTotals, ViewSpan} from './types.ts';

type BreakdownRow = RunCost['breakdown'][number];

/** The section, or undefined for a run that recorded no model call and had no budget. */
export function renderCost(detail: RunDetail, spanHref: (spanId: string) => string): HTMLElement | undefined {
  const cost = detail.record.cost;
  if (cost === undefined || (cost.calls === 0 && cost.budget === undefined)) return undefined;
  const children: HTMLElement[] = [
    element('p', {attributes: {id: 'cost-total'}, text: describeTotals(cost)}),
  ];
  if (cost.budget !== undefined) {
    const parts = [
      ...(cost.budget.usd === undefined ? [] : [formatUsd(cost.budget.usd)]),
      ...(cost.budget.tokens === undefined ? [] : [`${cost.budget.tokens} tokens`]),
    ];
    children.push(element('p', {attributes: {id: 'cost-budget'}, text: `budget ${parts.join(', ')}`}));
  }
  const hit = findBudgetHit(detail.view.spans);
  if (cost.budgetExceeded !== undefined) {
    const exceeded = cost.budgetExceeded;
    const figure = (n: number) => (exceeded.unit === 'usd' ? formatUsd(n) : `${n} tokens`);
    const at =
      hit === undefined
        ? exceeded.subject
        : element('a', {text: hit.label, attributes: {href: spanHref(hit.spanId)}});
    children.push(
      element('p', {className: 'budget-hit', attributes: {id: 'budget-exceeded'}}, [
        `budget exceeded: workflow ${exceeded.workflow} spent ${figure(exceeded.spent)} of ${figure(exceeded.limit)} at `,
        at,
      ]),
    );
  }
  if (cost.breakdown.length > 0)
    children.push(element('div', {className: 'cost-scroll'}, [renderBreakdown(cost.breakdown, hit)]));
  return element('section', {}, [element('h3', {text: 'Cost'}), ...children]);
}

function renderBreakdown(rows: RunCost['breakdown'], hit: ViewSpan | undefined): HTMLElement {
  // What is read first comes first: the panel is narrow, and the rest scrolls into view.
  const header = ['Agent/decision', 'Model', 'Cost', 'Calls', 'In', 'Out', 'Harness', 'Provider', 'Workflow'];
  return element('table', {className: 'cost', attributes: {id: 'cost-breakdown'}}, [
    element('thead', {}, [
      element(
        'tr',
        {},
        header.map((title) => element('th', {text: title})),
      ),
    ]),
    element(
      'tbody',
      {},
      rows.map((row) => {
        const marked = hit !== undefined && isRowOf(row, hit);
        const name = `${row.source === 'decision' ? 'decision ' : ''}${row.name}`;
        return element(
          'tr',
          marked ? {className: 'budget-hit', attributes: {'data-budget-hit': 'true'}} : {},
          [
            element('td', {}, [
              name,
              ...(marked ? [element('span', {className: 'budget-mark', text: ' hit the budget'})] : []),
            ]),
            element('td', {text: row.model ?? ''}),
            element('td', {className: 'num', text: formatRowCost(row)}),
            element('td', {className: 'num', text: String(row.calls)}),
            element('td', {className: 'num', text: String(row.inputTokens)}),
            element('td', {className: 'num', text: String(row.outputTokens)}),
            element('td', {text: row.harness ?? ''}),
            element('td', {text: row.provider ?? ''}),
            element('td', {text: row.workflow}),
          ],
        );
      }),
    ),
  ]);
}

/** `$0.0180 · 9300 tokens in 3 calls`, saying how many calls are of unknown cost and the harness's own figure. */
function describeTotals(cost: RunCost): string {
  const unknown =
    cost.unknownCostCalls > 0
      ? ` (${cost.unknownCostCalls} ${cost.unknownCostCalls === 1 ? 'call' : 'calls'} of unknown cost not included)`
      : '';
  const native = cost.nativeUsd === undefined ? '' : ` · harness-reported ${formatUsd(cost.nativeUsd)}`;
  return `${formatUsd(cost.usd)}${unknown} · ${cost.tokens} tokens in ${cost.calls} calls${native}`;
}

/** `unknown` when no call's cost is known, `$x+?` when some are unknown. */
function formatRowCost(row: SpendTotals): string {
  if (row.calls > 0 && row.unknownCostCalls === row.calls) return 'unknown';
  return `${formatUsd(row.usd)}${row.unknownCostCalls > 0 ? '+?' : ''}`;
}

/** Dollars with four decimals, or two significant digits when smaller and not zero (as `runs show` prints). */
function formatUsd(usd: number): string {
  return `$${usd !== 0 && usd < 0.0001 ? usd.toPrecision(2) : usd.toFixed(4)}`;
}

/** The span of the call that first hit a budget: the earliest `budget.exceeded` event (refused or stopped). */
function findBudgetHit(spans: readonly ViewSpan[]): ViewSpan | undefined {
  let first: {span: ViewSpan; time: number} | undefined;
  for (const span of spans)
    for (const event of span.events)
      if (event.name === 'budget.exceeded' && (first === undefined || event.time < first.time))
        first = {span, time: event.time};
  return first?.span;
}

/** The agent or decision span (`agent <name>`, `decision <name>`) of a breakdown row, in its invocation. */
function isRowOf(row: BreakdownRow, span: ViewSpan): boolean {
  return row.executionId === span.executionId && span.name === `${row.source} ${row.name}`;
}
