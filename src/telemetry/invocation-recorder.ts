/**
 * The real InvocationTelemetry: one per workflow invocation. It owns the invocation's workflow span, times
 * operations as child spans with start/end run events, attaches point events and console messages to the active
 * span, and closes what is still open as `incomplete` when its owner ends first: an observation begun with
 * `begin()` when its parent operation ends, everything when the invocation ends.
 */

import {describeCauseText, type SourceLocation} from '../errors/index.ts';
import type {EventRecord, RecordedError} from './artifacts/run-record.ts';
import {createSpanId} from './ids.ts';
import {
  type BeginOptions,
  type InvocationTelemetry,
  type OperationHandle,
  type OperationScope,
  type OperationSpec,
  silentHandle,
  silentScope,
  type TelemetryAttributes,
} from './invocation-telemetry.ts';
import {
  attributeNames,
  conventionAttributes,
  type OperationStatus,
  spanKindOf,
  truncateText,
  workflowSpanName,
} from './model/conventions.ts';
import {nowMs, recordingScope, type SpanRecord} from './recording-scope.ts';
import type {RunRecorder} from './run-recorder.ts';
import {errorMessage} from './telemetry-diagnostic.ts';

export interface InvocationIdentity {
  executionId: string;
  workflow: {name: string; version: string; shortDescription?: string | undefined};
  /** The parent's execution id; absent for a top-level run. */
  parentExecutionId?: string;
}

export class InvocationRecorder implements InvocationTelemetry {
  readonly run: RunRecorder;
  readonly identity: InvocationIdentity;
  /** Destination keys this invocation's spans export to: its own and its ancestors'. */
  readonly destinationKeys: readonly string[];
  readonly workflowSpan: SpanRecord;
  #open = new Set<SpanRecord>();
  /** Open observations begun with `begin()`, by the span id of their parent. */
  #begun = new Map<string, Set<SpanRecord>>();
  #signal: AbortSignal | undefined;
  #finished = false;

  constructor(options: {
    run: RunRecorder;
    identity: InvocationIdentity;
    destinationKeys: readonly string[];
    parentSpan: SpanRecord | undefined;
    signal: AbortSignal | undefined;
    startMs: number;
  }) {
    this.run = options.run;
    this.identity = options.identity;
    this.destinationKeys = options.destinationKeys;
    this.#signal = options.signal;
    const attributes: TelemetryAttributes = {
      ...conventionAttributes('workflow'),
      [attributeNames.workflowName]: options.identity.workflow.name,
      [attributeNames.workflowVersion]: options.identity.workflow.version,
      [attributeNames.workflowShortDescription]: options.identity.workflow.shortDescription,
      [attributeNames.executionId]: options.identity.executionId,
      [attributeNames.rootExecutionId]: options.run.rootExecutionId,
      [attributeNames.parentExecutionId]: options.identity.parentExecutionId,
    };
    this.workflowSpan = this.#startSpan(
      'workflow',
      workflowSpanName(options.identity.workflow.name),
      attributes,
      options.parentSpan,
      options.startMs,
    );
    this.#write({
      type: 'workflow.start',
      spanId: this.workflowSpan.spanId,
      parentSpanId: this.workflowSpan.parentSpanId,
      time: iso(options.startMs),
    });
  }

  /** Runs `fn` with this invocation's workflow span active (console messages inside it are attributed here). */
  activate<T>(fn: () => T): T {
    return recordingScope.run({owner: this, span: this.workflowSpan}, fn);
  }

  /** The span new work of this invocation hangs under: the active operation, else the workflow span. */
  activeSpan(): SpanRecord {
    const scope = recordingScope.getStore();
    return scope?.owner === this && !scope.span.ended ? scope.span : this.workflowSpan;
  }

  async operation<T>(spec: OperationSpec, fn: (scope: OperationScope) => Promise<T>): Promise<T> {
    if (this.#finished || this.run.closed) return fn(silentScope);
    let span: SpanRecord;
    try {
      span = this.#openSpan(spec, this.activeSpan());
    } catch (error) {
      this.#reportFailure(spec.name, error);
      return fn(silentScope);
    }
    const scope: OperationScope = {
      setAttributes: (attributes) => this.#guard(spec.name, () => this.#setAttributes(span, attributes)),
      addEvent: (name, attributes) => this.#guard(spec.name, () => this.#addEvent(span, name, attributes)),
      begin: (child, options) => this.#begin(child, span, options),
    };
    try {
      const result = await recordingScope.run({owner: this, span}, () => fn(scope));
      this.#endSpan(span, 'ok');
      return result;
    } catch (error) {
      this.#endSpan(span, this.#isCancellation(error) ? 'cancelled' : 'error', error);
      throw error;
    }
  }

  begin(spec: OperationSpec): OperationHandle {
    return this.#begin(spec, this.activeSpan());
  }

  /** An observation under `parent`, settled through the handle; never throws. */
  #begin(spec: OperationSpec, parent: SpanRecord, options: BeginOptions = {}): OperationHandle {
    // An owner that already ended cannot own new work: nothing is recorded rather than a misplaced span. Work the
    // caller attributes explicitly to an ended parent (it outlives it) is the exception.
    if (this.#finished || this.run.closed || (parent.ended && options.outlivesParent !== true))
      return silentHandle;
    let span: SpanRecord;
    try {
      span = this.#openSpan(spec, parent);
    } catch (error) {
      this.#reportFailure(spec.name, error);
      return silentHandle;
    }
    if (options.outlivesParent !== true) {
      const siblings = this.#begun.get(parent.spanId) ?? new Set<SpanRecord>();
      this.#begun.set(parent.spanId, siblings);
      siblings.add(span);
    }
    const settle = (
      status: OperationStatus,
      error: unknown,
      attributes: TelemetryAttributes | undefined,
      endMs: number | undefined,
    ) =>
      this.#guard(spec.name, () => {
        if (span.ended) return;
        if (attributes !== undefined) this.#setAttributes(span, attributes);
        this.#endSpan(span, status, error, endMs);
      });
    return {
      setAttributes: (attributes) => this.#guard(spec.name, () => this.#setAttributes(span, attributes)),
      begin: (child, childOptions) => this.#begin(child, span, childOptions),
      addEvent: (name, attributes) =>
        this.#guard(spec.name, () => {
          if (!span.ended) this.#addEvent(span, name, attributes);
        }),
      end: (attributes, endMs) => settle('ok', undefined, attributes, endMs),
      fail: (error, attributes, endMs) => settle('error', error, attributes, endMs),
      cancel: (attributes, endMs) => settle('cancelled', undefined, attributes, endMs),
    };
  }

  /** Starts a span for `spec` under `parent` and writes its `operation.start` record. */
  #openSpan(spec: OperationSpec, parent: SpanRecord): SpanRecord {
    const span = this.#startSpan(
      spec.kind,
      spec.name,
      {...conventionAttributes(spec.kind), ...spec.attributes},
      parent,
      reportedTime(spec.startMs, parent.startMs),
    );
    this.#open.add(span);
    this.#write({
      type: 'operation.start',
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      kind: spec.kind,
      name: spec.name,
      attributes: span.attributes,
      time: iso(span.startMs),
    });
    return span;
  }

  #reportFailure(name: string, error: unknown): void {
    this.run.report(
      'STRATOS_TELEMETRY_RECORDING_FAILED',
      `Recording operation ${name} failed: ${errorMessage(error)}`,
    );
  }

  /** Telemetry failures never reach the caller: they become a diagnostic of the run. */
  #guard(name: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.#reportFailure(name, error);
    }
  }

  event(name: string, attributes?: TelemetryAttributes): void {
    if (this.#finished) return;
    this.#addEvent(this.activeSpan(), name, attributes);
  }

  registerSecret(value: string): void {
    this.run.redactor.addSecret(value);
  }

  /** A console message published on Node's console diagnostics channels while `span` was active. */
  recordConsole(level: string, message: string, span: SpanRecord): void {
    if (this.#finished) return;
    const text = truncateText(this.run.redactor.redactString(message));
    this.#write({type: 'console', spanId: span.spanId, level, message: text, time: iso(nowMs())});
    span.exported?.addEvent(`console.${level}`, {'log.message': text}, nowMs());
  }

  /** Adds attributes to the workflow span (totals known only at the end, such as the invocation's cost). */
  setWorkflowAttributes(attributes: TelemetryAttributes): void {
    if (!this.#finished) this.#setAttributes(this.workflowSpan, attributes);
  }

  /**
   * Ends the workflow span with the invocation's outcome after closing still-open operations as incomplete.
   * `cancelled`: the invocation was cancelled from outside (SIGINT, a cancelled parent).
   */
  finish(outcome: {
    status: 'ok' | 'error' | 'cancelled';
    error?: {code: string; message: string; cause?: unknown; location?: SourceLocation};
  }): void {
    if (this.#finished) return;
    this.#finished = true;
    for (const span of [...this.#open]) this.#endSpan(span, 'incomplete');
    this.#endSpan(this.workflowSpan, outcome.status, outcome.error);
  }

  #startSpan(
    kind: string,
    name: string,
    attributes: TelemetryAttributes,
    parent: SpanRecord | undefined,
    startMs: number,
  ): SpanRecord {
    const clean = this.#clean(attributes);
    const exported =
      this.destinationKeys.length === 0 || this.run.traceExport === undefined
        ? undefined
        : this.run.traceExport.startSpan({
            name,
            kind: spanKindOf(kind),
            ...(parent === undefined ? {} : {parent: {traceId: parent.traceId, spanId: parent.spanId}}),
            startMs,
            attributes: clean,
            destinationKeys: this.destinationKeys,
          });
    return {
      traceId: this.run.traceId,
      spanId: exported?.spanId ?? createSpanId(),
      parentSpanId: parent?.spanId,
      kind,
      name,
      startMs,
      attributes: clean,
      exported,
      ended: false,
    };
  }

  #setAttributes(span: SpanRecord, attributes: TelemetryAttributes): void {
    if (span.ended) return;
    const clean = this.#clean(attributes);
    Object.assign(span.attributes, clean);
    span.exported?.setAttributes(clean);
  }

  #addEvent(span: SpanRecord, name: string, attributes: TelemetryAttributes | undefined): void {
    const clean = attributes === undefined ? undefined : this.#clean(attributes);
    const time = nowMs();
    this.#write({
      type: 'event',
      spanId: span.spanId,
      name,
      ...(clean === undefined ? {} : {attributes: clean}),
      time: iso(time),
    });
    if (!span.ended) span.exported?.addEvent(name, clean, time);
  }

  #endSpan(span: SpanRecord, status: OperationStatus, error?: unknown, reportedEndMs?: number): void {
    if (span.ended) return;
    // Observations begun under this span lose their owner now: their end can no longer be observed.
    const begun = this.#begun.get(span.spanId);
    if (begun !== undefined) {
      this.#begun.delete(span.spanId);
      for (const child of [...begun]) this.#endSpan(child, 'incomplete');
    }
    if (span.parentSpanId !== undefined) this.#begun.get(span.parentSpanId)?.delete(span);
    this.#open.delete(span);
    const endMs = reportedTime(reportedEndMs, span.startMs);
    const failure = status === 'error' || status === 'cancelled' ? describeError(error) : undefined;
    const attributes: TelemetryAttributes = {[attributeNames.outcome]: status};
    if (failure !== undefined && status === 'error')
      attributes[attributeNames.errorType] = failure.code ?? failure.type;
    if (failure !== undefined) attributes[attributeNames.errorMessage] = truncateText(failure.message);
    if (failure?.location !== undefined) {
      attributes[attributeNames.codeFilePath] = failure.location.file;
      attributes[attributeNames.codeLineNumber] = failure.location.line;
      attributes[attributeNames.codeColumnNumber] = failure.location.column;
    }
    this.#setAttributes(span, attributes);
    span.ended = true;
    const message = failure === undefined ? undefined : this.run.redactor.redactString(failure.message);
    span.exported?.end(status, message, endMs);
    this.#write({
      type: span === this.workflowSpan ? 'workflow.end' : 'operation.end',
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      ...(span === this.workflowSpan ? {} : {kind: span.kind, name: span.name}),
      status,
      durationMs: Math.round((endMs - span.startMs) * 1000) / 1000,
      attributes: span.attributes,
      ...(failure === undefined ? {} : {error: failure}),
      time: iso(endMs),
    });
  }

  #isCancellation(error: unknown): boolean {
    if (this.#signal?.aborted === true) return true;
    return isCancellationError(error);
  }

  /** Redacted attributes, undefined values dropped, long text cut. */
  #clean(
    attributes: TelemetryAttributes,
  ): Record<string, string | number | boolean | string[] | number[] | boolean[]> {
    const redacted = this.run.redactor.redactValue(attributes) as Record<string, unknown>;
    const out: Record<string, string | number | boolean | string[] | number[] | boolean[]> = {};
    for (const [key, value] of Object.entries(redacted)) {
      if (value === undefined || value === null) continue;
      out[key] = typeof value === 'string' ? truncateText(value) : (value as string[]);
    }
    return out;
  }

  #write(
    record: Omit<EventRecord, 'seq' | 'rootExecutionId' | 'traceId' | 'executionId' | 'workflow'>,
  ): void {
    this.run.record({
      ...record,
      executionId: this.identity.executionId,
      workflow: this.identity.workflow.name,
    });
  }
}

/** `STRATOS_RUN_CANCELLED` anywhere in the cause chain, or an AbortError. */
export function isCancellationError(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    const {code, name} = current as {code?: unknown; name?: unknown};
    if (code === 'STRATOS_RUN_CANCELLED' || name === 'AbortError') return true;
    current = (current as {cause?: unknown}).cause;
  }
  return false;
}

function describeError(error: unknown): RecordedError | undefined {
  if (error === undefined) return undefined;
  const described = describeOne(error);
  const causes: Omit<RecordedError, 'causes'>[] = [];
  const seen = new Set<unknown>([error]);
  let current = typeof error === 'object' && error !== null ? (error as {cause?: unknown}).cause : undefined;
  while (current !== undefined && current !== null && !seen.has(current) && causes.length < 10) {
    seen.add(current);
    const cause = describeOne(current);
    causes.push({...cause, message: truncateText(cause.message)});
    current = typeof current === 'object' ? (current as {cause?: unknown}).cause : undefined;
  }
  return causes.length === 0 ? described : {...described, causes};
}

/** Code, name, message and location of one error of a cause chain; a cause that is no Error as its text. */
function describeOne(error: unknown): Omit<RecordedError, 'causes'> {
  if (typeof error !== 'object' || error === null) return {message: describeCauseText(error)};
  const {code, name, location} = error as {code?: unknown; name?: unknown; location?: SourceLocation};
  return {
    ...(typeof code === 'string' ? {code} : {}),
    ...(typeof name === 'string' ? {type: name} : {}),
    message: describeCauseText(error),
    ...(typeof location?.file === 'string' ? {location} : {}),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A time a source reported (epoch ms), kept between `earliest` and now; now when none was reported. */
function reportedTime(reported: number | undefined, earliest: number): number {
  const now = nowMs();
  if (reported === undefined || !Number.isFinite(reported)) return now;
  return Math.min(now, Math.max(earliest, reported));
}
