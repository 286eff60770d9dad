/**
 * The runs page: `#/` is the list of runs, `#/runs/<run id>` one run's waterfall and details. Data comes from
 * the page's own server only. Once a view is drawn, `data-view` on <body> names it and the performance mark
 * `stratos:rendered` is set (bench/runs-page.bench.ts reads it).
 */
import {renderDetails} from './details.ts';
import {element, fetchJson, formatDuration, formatTime, formatTokens} from './dom.ts';
import {renderRunList} from './run-list.ts';
import type {RunDetail, RunList} from './types.ts';
import {createWaterfall} from './waterfall.ts';

const main = document.getElementById('main')!;
const scope = document.getElementById('scope')!;
let generation = 0;

async function route(): Promise<void> {
  const current = ++generation;
  document.body.dataset.view = 'loading';
  const match = /^#\/runs\/([^/]+)$/.exec(location.hash);
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
      renderRun(detail);
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

function renderRun(detail: RunDetail): void {
  const {run} = detail;
  const status = run.stale ? 'running (process gone)' : run.status;
  const facts = [
    formatTime(run.startedAt),
    formatDuration(run.durationMs),
    formatTokens(run.usage) === '' ? '' : `tokens ${formatTokens(run.usage)}`,
    run.runId,
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
  const notes: HTMLElement[] = [];
  if (run.error !== undefined)
    notes.push(element('p', {className: 'error', text: `${run.error.code}: ${run.error.message}`}));
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
  const waterfall = createWaterfall(detail.view.spans, detail.view, (span) =>
    renderDetails(panel, span, detail),
  );
  main.replaceChildren(header, ...notes, element('div', {className: 'run-body'}, [waterfall.root, panel]));
  waterfall.render();
  const first = detail.view.spans[0];
  if (first !== undefined) waterfall.select(first.spanId);
}

window.addEventListener('hashchange', () => void route());
void route();
