/**
 * The real InvocationTelemetry: one per workflow invocation. It owns the invocation's workflow span, times
 * operations as child spans with start/end run events, attaches point events and console messages to the active
 * span, and closes what is still open as `incomplete` when its owner ends first: an observation begun with
 * `begin()` when its parent operation ends, everything when the invocation ends.
 */

import type {SourceLocation} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
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
import {conventionAttributes, type OperationStatus, truncateText} from './model/conventions.ts';
import {isCancellationError} from './recorded-error.ts';
import {nowMs, recordingScope, type SpanRecord} from './recording-scope.ts';
import type {RunRecorder} from './run-recorder.ts';
import {type InvocationIdentity, iso, reportedTime, SpanWriter} from './span-writer.ts';

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
  #spans: SpanWriter;
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
    this.#spans = new SpanWriter(options.run, options.identity, options.destinationKeys);
    this.workflowSpan = this.#spans.startWorkflow(options.parentSpan, options.startMs);
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
      setAttributes: (attributes) =>
        this.#guard(spec.name, () => this.#spans.setAttributes(span, attributes)),
      addEvent: (name, attributes) =>
        this.#guard(spec.name, () => this.#spans.addEvent(span, name, attributes)),
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
        if (attributes !== undefined) this.#spans.setAttributes(span, attributes);
        this.#endSpan(span, status, error, endMs);
      });
    return {
      setAttributes: (attributes) =>
        this.#guard(spec.name, () => this.#spans.setAttributes(span, attributes)),
      begin: (child, childOptions) => this.#begin(child, span, childOptions),
      addEvent: (name, attributes) =>
        this.#guard(spec.name, () => {
          if (!span.ended) this.#spans.addEvent(span, name, attributes);
        }),
      end: (attributes, endMs) => settle('ok', undefined, attributes, endMs),
      fail: (error, attributes, endMs) => settle('error', error, attributes, endMs),
      cancel: (attributes, endMs) => settle('cancelled', undefined, attributes, endMs),
    };
  }

  /** Starts a span for `spec` under `parent` and writes its `operation.start` record. */
  #openSpan(spec: OperationSpec, parent: SpanRecord): SpanRecord {
    const span = this.#spans.start(
      spec.kind,
      spec.name,
      {...conventionAttributes(spec.kind), ...spec.attributes},
      parent,
      reportedTime(spec.startMs, parent.startMs),
    );
    this.#open.add(span);
    this.#spans.write({
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
      `Recording operation ${name} failed: ${describeError(error)}`,
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
    this.#spans.addEvent(this.activeSpan(), name, attributes);
  }

  registerSecret(value: string): void {
    this.run.redactor.addSecret(value);
  }

  /** A console message published on Node's console diagnostics channels while `span` was active. */
  recordConsole(level: string, message: string, span: SpanRecord): void {
    if (this.#finished) return;
    const text = truncateText(this.run.redactor.redactString(message));
    this.#spans.write({type: 'console', spanId: span.spanId, level, message: text, time: iso(nowMs())});
    span.exported?.addEvent(`console.${level}`, {'log.message': text}, nowMs());
  }

  /** Adds attributes to the workflow span (totals known only at the end, such as the invocation's cost). */
  setWorkflowAttributes(attributes: TelemetryAttributes): void {
    if (!this.#finished) this.#spans.setAttributes(this.workflowSpan, attributes);
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
    this.#spans.end(span, span === this.workflowSpan, status, error, reportedEndMs);
  }

  #isCancellation(error: unknown): boolean {
    if (this.#signal?.aborted === true) return true;
    return isCancellationError(error);
  }
}
