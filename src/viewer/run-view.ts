/**
 * The runs page's model of one run: its spans (workflows, operations) flattened in trace-tree order with their
 * depth, times on one clock, merged attributes, error with its causes, point events and console lines. It shows
 * what events.jsonl recorded and nothing more: a span without an end record has no end, status or duration.
 */
import {visibleCauses} from '../errors/index.ts';
import {errorKey} from '../telemetry/artifacts/error-origins.ts';
import type {EventRecord, RecordedError} from '../telemetry/artifacts/run-record.ts';
import {labelSpan} from '../telemetry/artifacts/span-label.ts';

export interface ViewLogLine {
  /** Milliseconds since the Unix epoch. */
  time: number;
  level: string;
  message: string;
}

export interface ViewEvent {
  time: number;
  name: string;
  attributes?: Record<string, unknown>;
}

export interface ViewSpan {
  spanId: string;
  /** The span it hangs under (which may be missing from the run's records). */
  parentSpanId?: string | undefined;
  /** 0 for a top-level workflow, one more per level of nesting. */
  depth: number;
  /** `workflow` or the operation kind (`mcp.call`, `agent.execute`, `agent.model` ...). */
  kind: string;
  name: string;
  /** The name with a tool call's key argument (`tools/call read_text_file path=src/x.ts`). */
  label: string;
  workflow: string;
  executionId: string;
  /** Epoch milliseconds; absent when only an end was recorded and it has no duration. */
  start?: number;
  /** Absent when no end was recorded (the span is still open, or its process stopped). */
  end?: number;
  /** `ok`, `error`, `cancelled`, `incomplete`; absent without an end record. */
  status?: string;
  durationMs?: number;
  attributes: Record<string, unknown>;
  /** Its causes only as far as they add to its message (each fact once). */
  error?: RecordedError;
  /** Set when a descendant recorded this same error first: that span's id. The page shows the error there. */
  errorFrom?: string;
  events: ViewEvent[];
  logs: ViewLogLine[];
  /** How many spans hang under this one (at any depth). */
  descendants: number;
}

export interface RunView {
  spans: ViewSpan[];
  /** Earliest and latest time recorded in the run (epoch ms); absent for a run without records. */
  startMs?: number;
  endMs?: number;
}

/** The spans of one run's events (sorted by `seq`), parents before children, siblings in start order. */
export function buildRunView(events: readonly EventRecord[]): RunView {
  const spans = new Map<string, ViewSpan>();
  const order: ViewSpan[] = [];
  let startMs: number | undefined;
  let endMs: number | undefined;
  const note = (time: number) => {
    if (Number.isNaN(time)) return;
    if (startMs === undefined || time < startMs) startMs = time;
    if (endMs === undefined || time > endMs) endMs = time;
  };
  const spanFor = (event: EventRecord): ViewSpan => {
    let span = spans.get(event.spanId);
    if (span === undefined) {
      // One object shape for every span (no conditional spreads): tens of thousands are made per page load.
      span = {
        spanId: event.spanId,
        parentSpanId: event.parentSpanId,
        depth: 0,
        kind: event.kind ?? 'workflow',
        name: event.name ?? `workflow ${event.workflow}`,
        label: '',
        workflow: event.workflow,
        executionId: event.executionId,
        attributes: {},
        events: [],
        logs: [],
        descendants: 0,
      };
      spans.set(event.spanId, span);
      order.push(span);
    }
    return span;
  };
  const pending: EventRecord[] = [];
  for (const event of events) {
    const time = Date.parse(event.time);
    note(time);
    switch (event.type) {
      case 'workflow.start':
      case 'operation.start': {
        const span = spanFor(event);
        span.start = time;
        Object.assign(span.attributes, event.attributes);
        break;
      }
      case 'workflow.end':
      case 'operation.end': {
        const span = spanFor(event);
        span.end = time;
        if (event.status !== undefined) span.status = event.status;
        if (event.durationMs !== undefined) {
          span.durationMs = event.durationMs;
          span.start ??= time - event.durationMs;
          note(span.start);
        }
        if (event.error !== undefined) span.error = withVisibleCauses(event.error);
        Object.assign(span.attributes, event.attributes);
        break;
      }
      case 'event':
      case 'console':
        // Attached once every span is known: a record may name a span whose start came later in the file.
        pending.push(event);
        break;
    }
  }
  for (const event of pending) {
    const span = spans.get(event.spanId);
    if (span === undefined) continue;
    const time = Date.parse(event.time);
    if (event.type === 'console')
      span.logs.push({time, level: event.level ?? 'log', message: event.message ?? ''});
    else
      span.events.push({
        time,
        name: event.name ?? '',
        ...(event.attributes === undefined ? {} : {attributes: event.attributes}),
      });
  }
  for (const span of order) span.label = labelSpan(span.name, span.attributes);
  const flat = flatten(order, spans);
  markErrorOrigins(flat);
  return {
    spans: flat,
    ...(startMs === undefined || endMs === undefined ? {} : {startMs, endMs}),
  };
}

function withVisibleCauses(error: RecordedError): RecordedError {
  if (error.causes === undefined) return error;
  const {causes, ...rest} = error;
  const visible = visibleCauses(error.message, causes);
  return visible.length === 0 ? rest : {...rest, causes: visible};
}

/**
 * Each error once: a span whose error a descendant recorded first gets `errorFrom` (that descendant), so the
 * page shows the error where it happened. Pre-order: a span's subtree is the `descendants` spans after it, and
 * walking backwards marks the deeper spans first.
 */
function markErrorOrigins(spans: ViewSpan[]): void {
  for (let index = spans.length - 1; index >= 0; index--) {
    const span = spans[index]!;
    if (span.error === undefined) continue;
    const key = errorKey(span.error);
    for (let below = index + 1; below <= index + span.descendants; below++) {
      const other = spans[below]!;
      if (other.error !== undefined && other.errorFrom === undefined && errorKey(other.error) === key) {
        span.errorFrom = other.spanId;
        break;
      }
    }
  }
}

/** Depth-first, parents first; siblings keep the order their first record was written in. */
function flatten(order: readonly ViewSpan[], spans: ReadonlyMap<string, ViewSpan>): ViewSpan[] {
  const children = new Map<ViewSpan | undefined, ViewSpan[]>();
  for (const span of order) {
    const parent = span.parentSpanId === undefined ? undefined : spans.get(span.parentSpanId);
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
  }
  const out: ViewSpan[] = [];
  // An explicit stack: a deep trace must not overflow the call stack.
  const stack: {span: ViewSpan; depth: number}[] = (children.get(undefined) ?? [])
    .map((span) => ({span, depth: 0}))
    .reverse();
  const ancestors: ViewSpan[] = [];
  while (stack.length > 0) {
    const {span, depth} = stack.pop()!;
    span.depth = depth;
    ancestors.length = depth;
    for (const ancestor of ancestors) ancestor.descendants++;
    ancestors.push(span);
    out.push(span);
    const below = children.get(span) ?? [];
    for (let index = below.length - 1; index >= 0; index--)
      stack.push({span: below[index]!, depth: depth + 1});
  }
  // Spans unreachable from a root (a malformed file whose parents form a loop) are still shown, at the top.
  if (out.length < order.length) {
    const shown = new Set(out);
    for (const span of order) if (!shown.has(span)) out.push(Object.assign(span, {depth: 0}));
  }
  return out;
}

/**
 * Token usage summed over the view as `stratos runs show` sums it (`totalUsage` of the run tree): at the
 * innermost level that reported it, so an agent's total and its model calls' usage are not added twice.
 * A point event with usage (Codex's `agent.usage`) is a leaf under its span. Counts no span reported stay absent.
 */
export function usageOfView(view: RunView): {inputTokens?: number; outputTokens?: number} {
  const total: {inputTokens?: number; outputTokens?: number} = {};
  const add = (attributes: Record<string, unknown> | undefined) => {
    const input = attributes?.['gen_ai.usage.input_tokens'];
    const output = attributes?.['gen_ai.usage.output_tokens'];
    if (typeof input === 'number') total.inputTokens = (total.inputTokens ?? 0) + input;
    if (typeof output === 'number') total.outputTokens = (total.outputTokens ?? 0) + output;
  };
  const reports = (attributes: Record<string, unknown> | undefined) =>
    typeof attributes?.['gen_ai.usage.input_tokens'] === 'number' ||
    typeof attributes?.['gen_ai.usage.output_tokens'] === 'number';
  // Pre-order: a span's subtree is the `descendants` spans after it. Walk backwards so children come first.
  const below = new Array<boolean>(view.spans.length).fill(false);
  for (let index = view.spans.length - 1; index >= 0; index--) {
    const span = view.spans[index]!;
    let childUsage = false;
    for (const event of span.events) {
      if (reports(event.attributes)) {
        add(event.attributes);
        childUsage = true;
      }
    }
    for (let child = index + 1; child <= index + span.descendants; child++) {
      if (below[child] === true) childUsage = true;
    }
    const own = reports(span.attributes);
    if (own && !childUsage) add(span.attributes);
    below[index] = own || childUsage;
  }
  return total;
}
