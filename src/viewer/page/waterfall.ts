/**
 * The waterfall of one run: one row per span in trace-tree order, indented by nesting, with its bar on a time
 * axis shared by every row. Failed, cancelled and incomplete spans are marked; a span without an end record is
 * drawn to the end of the run and says so. Only the rows in view exist in the DOM (fixed row height), so a run
 * with tens of thousands of spans scrolls and renders as fast as a small one. Subtrees fold and unfold.
 */
import {describeStatus, element, formatDuration, spanTokens} from './dom.ts';
import type {ViewSpan} from './types.ts';

const ROW_HEIGHT = 24;
const OVERSCAN = 20;

export interface Waterfall {
  /** The element to place in the page. */
  readonly root: HTMLElement;
  /** Draws the rows in view; call once the root is in the document. */
  render(): void;
  /** Selects a span (scrolled into view) and reports it; false when the run has no such span. */
  select(spanId: string): boolean;
  /**
   * Shows only the spans whose label, kind, status or error holds every word of `text` (any case); '' shows all.
   * Returns how many are shown.
   */
  filter(text: string): number;
}

export function createWaterfall(
  spans: readonly ViewSpan[],
  range: {startMs?: number; endMs?: number},
  onSelect: (span: ViewSpan) => void,
): Waterfall {
  const t0 = range.startMs ?? 0;
  const total = Math.max((range.endMs ?? t0) - t0, 1);
  const collapsed = new Set<string>();
  let words: string[] = [];
  const searchTexts = new Map<ViewSpan, string>();
  let visible: ViewSpan[] = [];
  let selected: string | undefined;
  let frame = 0;

  const ticks = axisTicks(total);
  const axis = element('div', {className: 'axis'}, [
    element('div', {
      className: 'axis-label',
      text: `${spans.length} ${spans.length === 1 ? 'span' : 'spans'}`,
    }),
    element('div', {className: 'axis-tokens', text: 'tokens'}),
    element(
      'div',
      {className: 'axis-track'},
      ticks.map((tick) =>
        element('span', {
          className: 'tick',
          text: tick === 0 ? '0' : formatDuration(tick),
          style: {left: `${(tick / total) * 100}%`},
        }),
      ),
    ),
  ]);
  const grid = element(
    'div',
    {className: 'grid'},
    ticks.map((tick) => element('span', {style: {left: `${(tick / total) * 100}%`}})),
  );
  const spacer = element('div', {className: 'spacer'}, [grid]);
  const rows = element('div', {className: 'rows', attributes: {role: 'tree', id: 'waterfall-rows'}}, [
    spacer,
  ]);
  const root = element('div', {className: 'waterfall', attributes: {id: 'waterfall'}}, [axis, rows]);

  const recompute = () => {
    visible = [];
    if (words.length > 0) {
      // A search shows the matches alone (folding does not hide them).
      visible = spans.filter((span) => {
        const text = searchTexts.get(span) ?? searchText(span);
        searchTexts.set(span, text);
        return words.every((word) => text.includes(word));
      });
    } else {
      for (let index = 0; index < spans.length; index++) {
        const span = spans[index]!;
        visible.push(span);
        if (collapsed.has(span.spanId)) index += span.descendants;
      }
    }
    spacer.style.height = `${visible.length * ROW_HEIGHT}px`;
  };

  const draw = () => {
    frame = 0;
    const first = Math.max(0, Math.floor(rows.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const height = rows.clientHeight || 800;
    const last = Math.min(visible.length, Math.ceil((rows.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    const fragment = document.createDocumentFragment();
    for (let index = first; index < last; index++) fragment.append(row(visible[index]!, index));
    spacer.replaceChildren(grid, fragment);
  };

  const row = (span: ViewSpan, index: number): HTMLElement => {
    const state = stateOf(span);
    const start = span.start ?? span.end ?? t0;
    const end = span.end ?? range.endMs ?? start;
    const left = ((start - t0) / total) * 100;
    const width = Math.max(((end - start) / total) * 100, 0);
    const toggle =
      span.descendants > 0
        ? element('button', {
            className: 'toggle',
            text: collapsed.has(span.spanId) ? '▸' : '▾',
            attributes: {
              type: 'button',
              'aria-label': collapsed.has(span.spanId) ? 'Unfold' : 'Fold',
              'aria-expanded': String(!collapsed.has(span.spanId)),
            },
          })
        : element('span', {className: 'toggle'});
    toggle.addEventListener('click', (event) => {
      event.stopPropagation();
      if (collapsed.has(span.spanId)) collapsed.delete(span.spanId);
      else collapsed.add(span.spanId);
      recompute();
      draw();
      rows.focus({preventScroll: true});
    });
    const marker =
      state === 'ok' ? [] : [element('span', {className: `mark mark-${state}`, text: markText(state)})];
    const tokens = spanTokens(span.attributes);
    const kindClass = `kind-${span.kind.replace(/[^a-z]/g, '-')}`;
    const node = element(
      'div',
      {
        className: `row state-${state}${span.spanId === selected ? ' selected' : ''}`,
        attributes: {
          role: 'treeitem',
          'aria-level': String(span.depth + 1),
          'data-span-id': span.spanId,
          'data-depth': String(span.depth),
          'data-kind': span.kind,
          'data-state': state,
          tabindex: '-1',
        },
        style: {top: `${index * ROW_HEIGHT}px`},
      },
      [
        element('div', {className: 'label', style: {'padding-left': `${span.depth * 16 + 4}px`}}, [
          toggle,
          element('span', {className: `kind ${kindClass}`, text: kindText(span.kind)}),
          element('span', {className: 'name', text: span.label, title: span.label}),
          ...marker,
        ]),
        element('div', {className: 'tokens', text: tokens, title: tokens === '' ? '' : `tokens ${tokens}`}),
        element('div', {className: 'track'}, [
          element('div', {
            className: `bar bar-${kindClass}`,
            style: {left: `${left}%`, width: `${width}%`},
            title: `${span.label}: ${span.end === undefined ? 'no end recorded' : formatDuration(span.durationMs)}`,
          }),
          element('span', {
            className: width >= 12 ? 'duration inside' : 'duration',
            text: span.end === undefined ? 'no end recorded' : formatDuration(span.durationMs),
            // Inside a wide bar, else beside it: after it, or before it near the right edge.
            style:
              width >= 12
                ? {right: `${100 - left - width + 0.5}%`}
                : left + width > 80
                  ? {right: `${100 - left + 0.5}%`}
                  : {left: `${left + width + 0.5}%`},
          }),
        ]),
      ],
    );
    node.addEventListener('click', () => {
      selected = span.spanId;
      for (const other of spacer.querySelectorAll('.row.selected')) other.classList.remove('selected');
      node.classList.add('selected');
      rows.focus({preventScroll: true});
      onSelect(span);
    });
    return node;
  };

  rows.addEventListener('scroll', () => {
    if (frame === 0) frame = requestAnimationFrame(draw);
  });
  // Up and down move the selection, left folds (or goes to the parent), right unfolds.
  rows.tabIndex = 0;
  rows.addEventListener('keydown', (event) => {
    const index = visible.findIndex((span) => span.spanId === selected);
    const current = visible[index];
    let target: ViewSpan | undefined;
    if (event.key === 'ArrowDown') target = visible[Math.min(index + 1, visible.length - 1)];
    else if (event.key === 'ArrowUp') target = visible[Math.max(index - 1, 0)];
    else if (event.key === 'ArrowLeft' && current !== undefined) {
      if (current.descendants > 0 && !collapsed.has(current.spanId)) {
        collapsed.add(current.spanId);
        recompute();
      } else target = visible.find((span) => span.spanId === current.parentSpanId);
    } else if (event.key === 'ArrowRight' && current !== undefined && collapsed.delete(current.spanId)) {
      recompute();
    } else return;
    event.preventDefault();
    if (target !== undefined) {
      selected = target.spanId;
      const top = visible.indexOf(target) * ROW_HEIGHT;
      if (top < rows.scrollTop) rows.scrollTop = top;
      else if (top + ROW_HEIGHT > rows.scrollTop + rows.clientHeight)
        rows.scrollTop = top + ROW_HEIGHT - rows.clientHeight;
      onSelect(target);
    }
    draw();
    // Redrawing replaced the focused row: keep the keys coming to the waterfall.
    rows.focus({preventScroll: true});
  });
  recompute();

  return {
    root,
    render: draw,
    select: (spanId) => {
      const span = spans.find((s) => s.spanId === spanId);
      if (span === undefined) return false;
      selected = spanId;
      let index = visible.indexOf(span);
      if (index < 0) {
        // Hidden by a search or a fold: show every span again so the selected one is in the list.
        words = [];
        collapsed.clear();
        recompute();
        index = visible.indexOf(span);
      }
      const top = index * ROW_HEIGHT;
      if (top < rows.scrollTop || top + ROW_HEIGHT > rows.scrollTop + (rows.clientHeight || 800))
        rows.scrollTop = Math.max(0, top - ROW_HEIGHT * 3);
      draw();
      onSelect(span);
      return true;
    },
    filter: (text) => {
      words = text.toLowerCase().split(/\s+/).filter(Boolean);
      recompute();
      rows.scrollTop = 0;
      draw();
      return visible.length;
    },
  };
}

/** What a search matches for a span: its label, kind, status word and error. */
function searchText(span: ViewSpan): string {
  return [
    span.label,
    span.kind,
    kindText(span.kind),
    describeStatus(stateOf(span)),
    span.error?.code ?? '',
    span.error?.message ?? '',
  ]
    .join(' ')
    .toLowerCase();
}

/** `ok`, `error`, `cancelled`, `incomplete` (closed by its owner), or `open` (no end recorded). */
export function stateOf(span: ViewSpan): string {
  if (span.end === undefined) return 'open';
  return span.status ?? 'open';
}

function markText(state: string): string {
  if (state === 'error') return 'failed';
  if (state === 'open') return 'no end';
  return state;
}

function kindText(kind: string): string {
  const known: Record<string, string> = {
    workflow: 'workflow',
    'agent.execute': 'agent',
    'agent.start': 'start',
    'agent.model': 'model',
    'agent.tool': 'tool',
    'agent.task': 'task',
    'agent.compaction': 'compaction',
    'mcp.connect': 'mcp',
    'mcp.call': 'mcp',
    decision: 'decision',
  };
  return known[kind] ?? kind;
}

/** Round tick positions (ms from the start) for an axis `total` ms long: 1, 2 or 5 times a power of ten. */
function axisTicks(total: number): number[] {
  const raw = total / 6;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let tick = 0; tick <= total + 1e-9; tick += step) ticks.push(tick);
  return ticks;
}
