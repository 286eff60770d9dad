/** A best-effort telemetry problem: reported beside the run result as a warning, never a workflow failure. */
import type {Diagnostic, ErrorCode} from '../errors/index.ts';

export type TelemetryDiagnostic = Diagnostic & {severity: 'warning'};

export function telemetryWarning(code: ErrorCode, message: string): TelemetryDiagnostic {
  return {code, severity: 'warning', message};
}
