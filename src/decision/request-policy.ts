/**
 * The bounded request policy of a decision (design philosophy, "Keep structured decisions distinct"): up to three
 * retries after the first attempt for transport failures, timeouts and HTTP 408, 429 and 5xx, one second apart,
 * 60 seconds per attempt. Anything else (a 4xx, a malformed answer, a contract error, a connection refused by a
 * server on this machine) fails at once. The caller's
 * signal stops the running attempt and any retry wait. Not a general retry engine.
 */
import {isStratosError, StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';

export const decisionRetries = 3;
export const decisionRetryDelayMs = 1000;
export const decisionAttemptTimeoutMs = 60_000;

/** One attempt as telemetry records it. */
export interface AttemptRecord {
  attempt: number;
  outcome: 'ok' | 'retryable' | 'failed' | 'timeout' | 'cancelled';
  durationMs: number;
  status?: number;
  code?: string;
  message?: string;
}

export interface RequestPolicyOptions {
  /** The decision's label in messages (`Decision 'triage'`). */
  label: string;
  signal: AbortSignal;
  onAttempt: (record: AttemptRecord) => void;
}

/**
 * Runs `attempt` under the policy.
 * @throws StratosError STRATOS_DECISION_CANCELLED, STRATOS_DECISION_REQUEST_FAILED, or the attempt's own error when
 *   it is not retryable and already a StratosError (an invalid answer).
 */
export async function requestWithRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  options: RequestPolicyOptions,
): Promise<T> {
  const {signal} = options;
  let lastError: unknown;
  for (let number = 1; number <= decisionRetries + 1; number++) {
    if (signal.aborted) throw cancelled(options.label, signal.reason, number - 1);
    const controller = new AbortController();
    // Built only when the timer fires: an error captures a stack, which costs more than a whole fast attempt.
    let timeout: StratosError | undefined;
    const timer = setTimeout(() => {
      timeout = new StratosError(
        'STRATOS_DECISION_REQUEST_FAILED',
        `${options.label}: attempt ${number} got no answer within ${decisionAttemptTimeoutMs / 1000} s.`,
      );
      controller.abort(timeout);
    }, decisionAttemptTimeoutMs);
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, {once: true});
    const startedAt = performance.now();
    const elapsed = () => Math.round((performance.now() - startedAt) * 1000) / 1000;
    try {
      const result = await attempt(controller.signal);
      options.onAttempt({attempt: number, outcome: 'ok', durationMs: elapsed()});
      return result;
    } catch (error) {
      if (signal.aborted) {
        options.onAttempt({attempt: number, outcome: 'cancelled', durationMs: elapsed()});
        throw cancelled(options.label, signal.reason, number);
      }
      const timedOut = timeout !== undefined && controller.signal.reason === timeout;
      const failure = timedOut ? timeout : error;
      const status = statusOf(failure);
      const retryable = timedOut || isRetryable(failure);
      options.onAttempt({
        attempt: number,
        outcome: timedOut ? 'timeout' : retryable ? 'retryable' : 'failed',
        durationMs: elapsed(),
        ...(status === undefined ? {} : {status}),
        ...(isStratosError(failure) ? {code: failure.code} : {}),
        message: describeError(failure),
      });
      if (!retryable) {
        // An answer or contract error (or a model that is not installed) is already the error to show.
        if (isStratosError(failure) && failure.code !== 'STRATOS_OLLAMA_REQUEST_FAILED') throw failure;
        throw new StratosError(
          'STRATOS_DECISION_REQUEST_FAILED',
          `${options.label} failed and was not retried: ${describeError(failure)}`,
          {cause: failure, details: {attempts: number, ...(status === undefined ? {} : {status})}},
        );
      }
      lastError = failure;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    if (number <= decisionRetries) await wait(decisionRetryDelayMs, signal, options.label, number);
  }
  const status = statusOf(lastError);
  throw new StratosError(
    'STRATOS_DECISION_REQUEST_FAILED',
    `${options.label} failed after ${decisionRetries + 1} attempts: ${describeError(lastError)}`,
    {cause: lastError, details: {attempts: decisionRetries + 1, ...(status === undefined ? {} : {status})}},
  );
}

/**
 * Transport failures and HTTP 408, 429 and 5xx. A connection refused by a server on this machine is not transient
 * (nothing listens there, and a second wait will not start it): it fails at once with its `ollama serve` hint.
 */
function isRetryable(error: unknown): boolean {
  if (!isStratosError(error)) return false;
  if (error.code === 'STRATOS_OLLAMA_UNREACHABLE') return error.details?.refusedLocally !== true;
  const status = statusOf(error);
  return (
    error.code === 'STRATOS_OLLAMA_REQUEST_FAILED' &&
    status !== undefined &&
    (status === 408 || status === 429 || status >= 500)
  );
}

function statusOf(error: unknown): number | undefined {
  const status = isStratosError(error) ? error.details?.status : undefined;
  return typeof status === 'number' ? status : undefined;
}

function cancelled(label: string, reason: unknown, attempts: number): StratosError {
  return new StratosError(
    'STRATOS_DECISION_CANCELLED',
    `${label} was cancelled after ${attempts} attempt${attempts === 1 ? '' : 's'}.`,
    {
      cause: reason,
      details: {attempts},
    },
  );
}

function wait(ms: number, signal: AbortSignal, label: string, attempts: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled(label, signal.reason, attempts));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, {once: true});
  });
}
