/**
 * The list of recent runs: workflow, status, start, duration, token usage, cost, the failing code; a text filter and a
 * status filter.
 */
import {element, formatDuration, formatTime, formatTokens} from './dom.ts';
import type {RunList, RunSummary} from './types.ts';

/** Replaces `main` with the list of `list.runs`. */
export function renderRunList(main: HTMLElement, list: RunList): void {
  const search = element('input', {
    attributes: {type: 'search', id: 'filter', placeholder: 'Filter by workflow, status, run id or error'},
  });
  const status = element('select', {attributes: {id: 'status-filter', 'aria-label': 'Status'}}, [
    element('option', {text: 'any status', attributes: {value: ''}}),
    ...['succeeded', 'failed', 'cancelled', 'running'].map((value) =>
      element('option', {text: value, attributes: {value}}),
    ),
  ]);
  const count = element('span', {className: 'dim', attributes: {id: 'run-count'}});
  const body = element('tbody');
  const columns = ['Workflow', 'Status', 'Started', 'Duration', 'Tokens', 'Cost', 'Error', 'Run'];
  if (list.scope.all) columns.push('Directory');
  const table = element('table', {className: 'runs', attributes: {id: 'runs'}}, [
    element('thead', {}, [
      element(
        'tr',
        {},
        columns.map((name) => element('th', {text: name})),
      ),
    ]),
    body,
  ]);
  const rows = list.runs.map((run) => ({run, row: runRow(run, list.scope.all), text: searchText(run)}));
  for (const {row} of rows) body.append(row);
  const apply = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const {run, row, text} of rows) {
      const visible =
        (status.value === '' || statusLabel(run).startsWith(status.value)) &&
        words.every((word) => text.includes(word));
      row.hidden = !visible;
      if (visible) shown++;
    }
    count.textContent = `${shown} of ${rows.length} ${rows.length === 1 ? 'run' : 'runs'}`;
  };
  search.addEventListener('input', apply);
  status.addEventListener('change', apply);
  apply();
  const empty =
    list.runs.length === 0
      ? [
          element('p', {
            className: 'dim',
            text: list.scope.all
              ? 'No recorded runs.'
              : 'No recorded runs for this directory (start with --all to see every directory).',
          }),
        ]
      : [];
  main.replaceChildren(
    element('div', {className: 'toolbar'}, [search, status, count]),
    ...empty,
    ...(list.runs.length === 0 ? [] : [table]),
  );
  search.focus();
}

/** `$0.0180`, `+?` when some calls' cost is unknown; empty when the run made no model call. */
function formatCost(cost: RunSummary['cost']): string {
  if (cost === undefined || cost.calls === 0) return '';
  return `$${cost.usd.toFixed(4)}${cost.unknownCostCalls > 0 ? '+?' : ''}`;
}

function runRow(run: RunSummary, all: boolean): HTMLTableRowElement {
  const href = `#/runs/${encodeURIComponent(run.runId)}`;
  const label = statusLabel(run);
  const cells = [
    element('td', {}, [element('a', {text: run.workflow, attributes: {href}})]),
    element('td', {}, [element('span', {className: `badge status-${run.status}`, text: label})]),
    element('td', {text: formatTime(run.startedAt)}),
    element('td', {className: 'num', text: formatDuration(run.durationMs)}),
    element('td', {className: 'num', text: formatTokens(run.usage)}),
    element('td', {className: 'num', text: formatCost(run.cost)}),
    element('td', {
      className: 'mono error-code',
      text: run.error?.code ?? '',
      title: run.error?.message ?? '',
    }),
    element('td', {className: 'mono dim', text: run.runId, title: run.runId}),
  ];
  if (all) cells.push(element('td', {className: 'dim', text: run.invocationDirectory}));
  const row = element('tr', {attributes: {'data-run-id': run.runId, 'data-status': run.status}}, cells);
  row.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a') === null) location.hash = href;
  });
  return row;
}

function statusLabel(run: RunSummary): string {
  return run.stale ? 'running (process gone)' : run.status;
}

function searchText(run: RunSummary): string {
  return [
    run.workflow,
    statusLabel(run),
    run.runId,
    run.invocationDirectory,
    run.error?.code ?? '',
    run.error?.message ?? '',
  ]
    .join(' ')
    .toLowerCase();
}
