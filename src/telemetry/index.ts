export {
  type Budget,
  emptySpendTotals,
  type RunCost,
  type SpendBreakdownRow,
  type SpendTotals,
  type WorkflowSpend,
} from './artifacts/run-cost.ts';
export type {EventRecord, RunRecord, RunStatus, ValueSummary} from './artifacts/run-record.ts';
export type {ExporterSettings, HeaderResolver} from './export/destinations.ts';
export type {InvocationRecorder} from './invocation-recorder.ts';
export {
  type InvocationTelemetry,
  type OperationHandle,
  type OperationScope,
  type OperationSpec,
  silentTelemetry,
  type TelemetryAttributes,
} from './invocation-telemetry.ts';
export {
  closeInvocationTelemetry,
  type InvocationOutcome,
  type InvocationTelemetryReport,
  type OpenInvocationTelemetryOptions,
  openInvocationTelemetry,
} from './open-invocation-telemetry.ts';
export {toRecordedJson} from './redaction.ts';
export type {TelemetryDiagnostic} from './telemetry-diagnostic.ts';
