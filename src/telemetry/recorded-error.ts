/**
 * How a failure is written into a run's records: its code, type, message and location, with its cause chain, and
 * whether it is a cancellation rather than an error.
 */
import {describeCauseText, type SourceLocation} from '../errors/index.ts';
import type {RecordedError} from './artifacts/run-record.ts';
import {truncateText} from './model/conventions.ts';

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

/** `error` as recorded on a span's end record, with up to ten causes; undefined when there is none. */
export function recordError(error: unknown): RecordedError | undefined {
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
