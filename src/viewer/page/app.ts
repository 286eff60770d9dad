/**
 * The runs page: `#/` is the list of runs, `#/runs/<run id>` one run's waterfall and details, and
 * `#/runs/<run id>/<span id>` the same with that span selected (the link the page puts in the address bar). Data comes from
 * the page's own server only. Once a view is drawn, `data-view` on <body> names it and the performance mark
 * `stratos:rendered` is set (bench/runs-page.bench.ts reads it).
 */
import {renderDetails} from './details.ts';
import {element, fetchJson, formatDuration, formatLocation, formatTime, formatTokens} from './dom.ts';
import {renderRunList} from './run-list.ts';
import type {RunDetail, RunList} from './types.ts';
import {createWaterfall, type Waterfall} from './waterfall.ts';

const main = document.getElementById('main')!;
const scope = document.getElementById('scope')!;
let generation = 0;
/** The run on screen, so a link to another of its spans selects it without loading the run again. */
let shown: {runId: string; waterfall: Waterfall} | undefined;

async function route(): Promise<void> {
  const match = /^#\/runs\/([^/]+)(?:\/([0-9a-f]+))?$/.exec(location.hash);
  const spanId = match?.[2];
  if (
    match !== null &&
    shown !== undefined &&
    shown.runId === decodeURIComponent(match[1]!) &&
    spanId !== undefined
  ) {
    shown.waterfall.select(spanId);
    return;
  }
  const current = ++generation;
  shown = undefined;
  document.body.dataset.view = 'loading';
  try {
    if (match === null) {
      const list = await fetchJson<RunList>('api/runs');
      if (current !== generation) return;
      scope.textContent = list.scope.all ? 'every directory' : list.scope.directory;
      renderRunList(main, list);
      done('list');
    } else {
      const detail = await fetchJson<RunDetail>(`api/runs/${match[1]}`);
      if (current !== generation) return;
      renderRun(detail, spanId);
      done('run');
    }
  } catch (error) {
    if (current !== generation) return;
    main.replaceChildren(
      element('p', {className: 'error', text: `The page could not load: ${(error as Error).message}`}),
      element('p', {}, [element('a', {text: 'Back to the list of runs', attributes: {href: '#/'}})]),
    );
    done('error');
  }
}

function done(view: string): void {
  requestAnimationFrame(() => {
    performance.mark('stratos:rendered', {detail: view});
    document.body.dataset.view = view;
  });
}

function renderRun(detail: RunDetail, spanId: string | undefined): void {
  const {run} = detail;
  const status = run.stale ? 'running (process gone)' : run.status;
  const facts = [
    formatTime(run.startedAt),
    formatDuration(run.durationMs),
    formatTokens(run.usage) === '' ? '' : `tokens ${formatTokens(run.usage)}`,
    run.runId,
    run.resumedFrom === undefined ? '' : `resumed from ${run.resumedFrom}`,
  ].filter((text) => text !== '');
  const reload = element('button', {text: 'Reload', attributes: {type: 'button', id: 'reload'}});
  reload.addEventListener('click', () => void route());
  const header = element('div', {className: 'run-head'}, [
    element('a', {text: '← runs', attributes: {href: '#/'}}),
    element('h1', {text: run.workflow}),
    element('span', {className: `badge status-${run.status}`, text: status, attributes: {id: 'run-status'}}),
    element('span', {className: 'dim', text: facts.join(' · ')}),
    reload,
  ]);
  const spanHref = (id: string) => `#/runs/${encodeURIComponent(run.runId)}/${id}`;
  const notes: HTMLElement[] = [];
  if (run.error !== undefined) notes.push(runError(detail, spanHref));
  if (detail.unreadableEvents > 0)
    notes.push(
      element('p', {
        className: 'warn',
        text: `${detail.unreadableEvents} lines of events.jsonl could not be read.`,
      }),
    );
  for (const diagnostic of detail.record.diagnostics ?? [])
    notes.push(element('p', {className: 'warn', text: `${diagnostic.code}: ${diagnostic.message}`}));
  const panel = element('aside', {className: 'details', attributes: {id: 'details'}}, [
    element('p', {className: 'dim', text: 'Select an operation to see its details.'}),
  ]);
  const waterfall = createWaterfall(detail.view.spans, detail.view, (span) => {
    // The address bar links to the selected span; replaced, so Back still leaves the run.
    history.replaceState(null, '', spanHref(span.spanId));
    renderDetails(panel, span, detail, spanHref);
  });
  const search = element('input', {
    className: 'span-search',
    attributes: {
      type: 'search',
      id: 'span-filter',
      placeholder: 'Filter spans by name, argument, kind, status or error',
    },
  });
  const count = element('span', {className: 'dim', attributes: {id: 'span-count'}});
  search.addEventListener('input', () => {
    const matches = waterfall.filter(search.value);
    count.textContent = search.value.trim() === '' ? '' : `${matches} of ${detail.view.spans.length} spans`;
  });
  main.replaceChildren(
    header,
    ...notes,
    element('div', {className: 'toolbar'}, [search, count]),
    element('div', {className: 'run-body'}, [waterfall.root, panel]),
  );
  waterfall.render();
  shown = {runId: run.runId, waterfall};
  const first = detail.view.spans[0];
  if (spanId !== undefined && waterfall.select(spanId)) return;
  if (first !== undefined) waterfall.select(first.spanId);
}

/** The run's error once, with where it was thrown and a link to the span where it happened. */
function runError(detail: RunDetail, spanHref: (spanId: string) => string): HTMLElement {
  const error = detail.run.error!;
  const origin = detail.view.spans.find(
    (span) =>
      span.errorFrom === undefined && span.error?.code === error.code && span.error.message === error.message,
  );
  return element('p', {className: 'error', attributes: {id: 'run-error'}}, [
    `${error.code}: ${error.message}`,
    ...(error.location === undefined ? [] : [` (at ${formatLocation(error.location)})`]),
    ...(origin === undefined || origin.parentSpanId === undefined
      ? []
      : [' · raised in ', element('a', {text: origin.label, attributes: {href: spanHref(origin.spanId)}})]),
  ]);
}

window.addEventListener('hashchange', () => void route());
void route();
