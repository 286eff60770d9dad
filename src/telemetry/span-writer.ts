/**
 * How one invocation's spans become records: each span start, attribute change, point event and end is written to
 * the run's event log (redacted, long text cut) and mirrored on the exported span when traces are exported. Which
 * spans are open and who owns them is the invocation recorder's job (`invocation-recorder.ts`).
 */
import type {EventRecord} from './artifacts/run-record.ts';
import {createSpanId} from './ids.ts';
import type {TelemetryAttributes} from './invocation-telemetry.ts';
import {
  attributeNames,
  conventionAttributes,
  type OperationStatus,
  spanKindOf,
  truncateText,
  workflowSpanName,
} from './model/conventions.ts';
import {recordError} from './recorded-error.ts';
import {nowMs, type SpanRecord} from './recording-scope.ts';
import type {RunRecorder} from './run-recorder.ts';

export interface InvocationIdentity {
  executionId: string;
  workflow: {name: string; version: string; shortDescription?: string | undefined};
  /** The parent's execution id; absent for a top-level run. */
  parentExecutionId?: string;
}

type CleanAttributes = Record<string, string | number | boolean | string[] | number[] | boolean[]>;

/** Writes the records of one invocation's spans. */
export class SpanWriter {
  readonly #run: RunRecorder;
  readonly #identity: InvocationIdentity;
  readonly #destinationKeys: readonly string[];

  constructor(run: RunRecorder, identity: InvocationIdentity, destinationKeys: readonly string[]) {
    this.#run = run;
    this.#identity = identity;
    this.#destinationKeys = destinationKeys;
  }

  /** Starts the invocation's workflow span under `parent` and writes its `workflow.start` record. */
  startWorkflow(parent: SpanRecord | undefined, startMs: number): SpanRecord {
    const {executionId, workflow, parentExecutionId} = this.#identity;
    const attributes: TelemetryAttributes = {
      ...conventionAttributes('workflow'),
      [attributeNames.workflowName]: workflow.name,
      [attributeNames.workflowVersion]: workflow.version,
      [attributeNames.workflowShortDescription]: workflow.shortDescription,
      [attributeNames.executionId]: executionId,
      [attributeNames.rootExecutionId]: this.#run.rootExecutionId,
      [attributeNames.parentExecutionId]: parentExecutionId,
    };
    const span = this.start('workflow', workflowSpanName(workflow.name), attributes, parent, startMs);
    this.write({
      type: 'workflow.start',
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      time: iso(startMs),
    });
    return span;
  }

  /** A new span (exported too when the invocation has trace destinations); writes no record. */
  start(
    kind: string,
    name: string,
    attributes: TelemetryAttributes,
    parent: SpanRecord | undefined,
    startMs: number,
  ): SpanRecord {
    const clean = this.clean(attributes);
    const traceExport = this.#run.traceExport;
    const exported =
      this.#destinationKeys.length === 0 || traceExport === undefined
        ? undefined
        : traceExport.startSpan({
            name,
            kind: spanKindOf(kind),
            ...(parent === undefined ? {} : {parent: {traceId: parent.traceId, spanId: parent.spanId}}),
            startMs,
            attributes: clean,
            destinationKeys: this.#destinationKeys,
          });
    return {
      traceId: this.#run.traceId,
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

  setAttributes(span: SpanRecord, attributes: TelemetryAttributes): void {
    if (span.ended) return;
    const clean = this.clean(attributes);
    Object.assign(span.attributes, clean);
    span.exported?.setAttributes(clean);
  }

  addEvent(span: SpanRecord, name: string, attributes: TelemetryAttributes | undefined): void {
    const clean = attributes === undefined ? undefined : this.clean(attributes);
    const time = nowMs();
    this.write({
      type: 'event',
      spanId: span.spanId,
      name,
      ...(clean === undefined ? {} : {attributes: clean}),
      time: iso(time),
    });
    if (!span.ended) span.exported?.addEvent(name, clean, time);
  }

  /** Ends `span` with `status` and writes its `workflow.end` (`isWorkflow`) or `operation.end` record. */
  end(
    span: SpanRecord,
    isWorkflow: boolean,
    status: OperationStatus,
    error: unknown,
    reportedEndMs: number | undefined,
  ): void {
    const endMs = reportedTime(reportedEndMs, span.startMs);
    const failure = status === 'error' || status === 'cancelled' ? recordError(error) : undefined;
    const attributes: TelemetryAttributes = {[attributeNames.outcome]: status};
    if (failure !== undefined && status === 'error')
      attributes[attributeNames.errorType] = failure.code ?? failure.type;
    if (failure !== undefined) attributes[attributeNames.errorMessage] = truncateText(failure.message);
    if (failure?.location !== undefined) {
      attributes[attributeNames.codeFilePath] = failure.location.file;
      attributes[attributeNames.codeLineNumber] = failure.location.line;
      attributes[attributeNames.codeColumnNumber] = failure.location.column;
    }
    this.setAttributes(span, attributes);
    span.ended = true;
    const message = failure === undefined ? undefined : this.#run.redactor.redactString(failure.message);
    span.exported?.end(status, message, endMs);
    this.write({
      type: isWorkflow ? 'workflow.end' : 'operation.end',
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      ...(isWorkflow ? {} : {kind: span.kind, name: span.name}),
      status,
      durationMs: Math.round((endMs - span.startMs) * 1000) / 1000,
      attributes: span.attributes,
      ...(failure === undefined ? {} : {error: failure}),
      time: iso(endMs),
    });
  }

  /** Redacted attributes, undefined values dropped, long text cut. */
  clean(attributes: TelemetryAttributes): CleanAttributes {
    const redacted = this.#run.redactor.redactValue(attributes) as Record<string, unknown>;
    const out: CleanAttributes = {};
    for (const [key, value] of Object.entries(redacted)) {
      if (value === undefined || value === null) continue;
      out[key] = typeof value === 'string' ? truncateText(value) : (value as string[]);
    }
    return out;
  }

  /** One record of this invocation in the run's event log. */
  write(record: Omit<EventRecord, 'seq' | 'rootExecutionId' | 'traceId' | 'executionId' | 'workflow'>): void {
    this.#run.record({
      ...record,
      executionId: this.#identity.executionId,
      workflow: this.#identity.workflow.name,
    });
  }
}

/** Epoch milliseconds as an ISO 8601 timestamp. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A time a source reported (epoch ms), kept between `earliest` and now; now when none was reported. */
export function reportedTime(reported: number | undefined, earliest: number): number {
  const now = nowMs();
  if (reported === undefined || !Number.isFinite(reported)) return now;
  return Math.min(now, Math.max(earliest, reported));
}
