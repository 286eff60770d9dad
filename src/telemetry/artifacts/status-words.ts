/**
 * The one vocabulary people read for outcomes: a run's words (`succeeded`, `failed`, `cancelled`, `running`) for
 * operations too, plus `incomplete` for an operation its owner closed before it ended. The recorded span status
 * (OpenTelemetry's `ok`/`error`) stays as it is in events.jsonl, the `--json` data and exported traces.
 */
import type {OperationStatus} from '../model/conventions.ts';

const words: Record<OperationStatus, string> = {
  ok: 'succeeded',
  error: 'failed',
  cancelled: 'cancelled',
  incomplete: 'incomplete',
};

/** The word for a recorded operation status (`ok` → `succeeded`, `error` → `failed`); others as they are. */
export function describeStatus(status: string): string {
  return words[status as OperationStatus] ?? status;
}
