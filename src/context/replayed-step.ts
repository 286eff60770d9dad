/**
 * What every primitive does with a step around the seam: the span attributes of a replayed step (`stratos.replayed`
 * with the original's key and span id, never an invented duration), its journaled outcome handed back, and the
 * outcome of a failed live step as the journal keeps it.
 */
import {type ErrorCode, isStratosError, StratosError} from '../errors/index.ts';
import {recordingScope} from '../telemetry/recording-scope.ts';
import type {JournalEntry} from './step-journal.ts';

/** Span attributes marking a step answered from the journal. */
export function describeReplayedStep(entry: JournalEntry): Record<string, string | boolean> {
  return {
    'stratos.replayed': true,
    'stratos.replayed.key': entry.key,
    'stratos.replayed.completed_at': entry.completedAt,
    ...(entry.spanId === undefined ? {} : {'stratos.replayed.span_id': entry.spanId}),
  };
}

/**
 * The journaled result of a step.
 * @throws StratosError the journaled error, with its code and message.
 */
export function replayOutcome(entry: JournalEntry): unknown {
  const {outcome} = entry;
  if (outcome.error !== undefined) {
    throw new StratosError(outcome.error.code as ErrorCode, outcome.error.message, {
      details: {replayed: entry.key},
    });
  }
  return structuredClone(outcome.value);
}

/**
 * A failed live step's outcome for the journal, or undefined when it must run again on resume: a cancellation
 * (Ctrl+C, a parent ending) is not the step's own result.
 */
export function journaledFailure(error: unknown): JournalEntry['outcome'] | undefined {
  const code = isStratosError(error) ? error.code : 'STRATOS_RUN_FAILED';
  if (code.endsWith('_CANCELLED') || (error instanceof Error && error.name === 'AbortError')) return;
  if (isStratosError(error) && (error as {cancelled?: boolean}).cancelled === true) return;
  return {error: {code, message: error instanceof Error ? error.message : String(error)}};
}

/** The span id of the operation running now, kept with the journal entry. */
export function findCurrentSpanId(): string | undefined {
  return recordingScope.getStore()?.span.spanId;
}
