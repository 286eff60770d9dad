/**
 * What one top-level run shares with all its descendant invocations: the trace id, the redactor, the local
 * artifacts, the lazily loaded trace export and the run's telemetry diagnostics. Every record of every
 * invocation passes through `record()`, which redacts it: the one recording path.
 */
import type {ErrorCode} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {RunArtifacts} from './artifacts/run-artifacts.ts';
import type {RunCost} from './artifacts/run-cost.ts';
import type {EventRecord} from './artifacts/run-record.ts';
import type {Destination} from './export/destinations.ts';
import type {TraceExport} from './export/trace-export.ts';
import {createTraceId} from './ids.ts';
import {Redactor} from './redaction.ts';
import {type TelemetryDiagnostic, telemetryWarning} from './telemetry-diagnostic.ts';

/** Upper bound on waiting for trace export when a run ends (each exporter request has its own timeout). */
export const EXPORT_FLUSH_TIMEOUT_MS = 6_000;

export class RunRecorder {
  readonly traceId = createTraceId();
  readonly rootExecutionId: string;
  readonly redactor = new Redactor();
  artifacts: RunArtifacts | undefined;
  /** What the run and its descendants spent, set by the runtime before the run closes; written into run.json. */
  cost: RunCost | undefined;
  #resource: Record<string, string>;
  #traceExport: TraceExport | undefined;
  #loading: Promise<TraceExport | undefined> | undefined;
  #diagnostics: TelemetryDiagnostic[] = [];
  #seq = 0;
  #closed = false;

  constructor(rootExecutionId: string, resource: Record<string, string>) {
    this.rootExecutionId = rootExecutionId;
    this.#resource = resource;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The trace export, once some invocation of the run has a destination. */
  get traceExport(): TraceExport | undefined {
    return this.#traceExport;
  }

  get diagnostics(): readonly TelemetryDiagnostic[] {
    return this.#diagnostics;
  }

  /** Reports a problem (redacted); the same message is reported once. */
  report(code: ErrorCode, message: string): void {
    const text = this.redactor.redactString(message);
    if (this.#diagnostics.some((d) => d.code === code && d.message === text)) return;
    this.#diagnostics.push(telemetryWarning(code, text));
  }

  /** Redacts and writes one events.jsonl record (and its run.log line). Never throws. */
  record(partial: Omit<EventRecord, 'seq' | 'rootExecutionId' | 'traceId'>): void {
    if (this.#closed || this.artifacts === undefined) return;
    try {
      // Identity first, so a line reads naturally: when, which run, which invocation, which span, what.
      const {time, type, executionId, workflow, ...rest} = partial;
      const record = this.redactor.redactValue({
        time,
        seq: this.#seq++,
        type,
        rootExecutionId: this.rootExecutionId,
        executionId,
        workflow,
        traceId: this.traceId,
        ...rest,
      }) as EventRecord;
      this.artifacts.write(record);
    } catch (error) {
      this.report(
        'STRATOS_TELEMETRY_RECORDING_FAILED',
        `Recording a ${partial.type} record failed: ${describeError(error)}`,
      );
    }
  }

  /** Loads the OpenTelemetry SDK (first time only) and adds the destinations. Never throws. */
  async addDestinations(destinations: readonly Destination[]): Promise<void> {
    if (destinations.length === 0) return;
    this.#loading ??= import('./export/trace-export.ts').then(
      ({createTraceExport}) =>
        createTraceExport({
          traceId: this.traceId,
          resource: this.#resource,
          onFailure: (label, error) =>
            this.report(
              'STRATOS_TELEMETRY_EXPORT_FAILED',
              `Trace export to ${label} failed: ${describeError(error)}`,
            ),
        }),
      (error: unknown) => {
        this.report(
          'STRATOS_TELEMETRY_EXPORT_FAILED',
          `The OpenTelemetry SDK could not be loaded: ${describeError(error)}`,
        );
        return undefined;
      },
    );
    this.#traceExport = await this.#loading;
    for (const destination of destinations) {
      try {
        this.#traceExport?.addDestination(destination);
      } catch (error) {
        this.report(
          'STRATOS_TELEMETRY_DESTINATION_INVALID',
          `Trace destination ${destination.label} could not be set up: ${describeError(error)}`,
        );
      }
    }
  }

  /** Ends the run's recording: final run.json, closed files, flushed exports (bounded). Never throws. */
  async close(update: Parameters<RunArtifacts['finish']>[0]): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#traceExport?.shutdown(EXPORT_FLUSH_TIMEOUT_MS);
    const diagnostics = this.#diagnostics.map(({code, message}) => ({code, message}));
    const withCost = this.cost === undefined ? update : {...update, cost: this.cost};
    await this.artifacts?.finish(diagnostics.length > 0 ? {...withCost, diagnostics} : withCost);
  }
}
