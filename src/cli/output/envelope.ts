/** The `--json` envelope of docs/contributing/design-decisions.md: always one JSON document on stdout. */
import type {Diagnostic} from '../../errors/index.ts';
import {describeCauseText, isStratosError, type StratosError} from '../../errors/index.ts';

export interface SuccessEnvelope {
  ok: true;
  message: string;
  data: unknown;
  warnings: Diagnostic[];
}

export interface FailureEnvelope {
  ok: false;
  error: {code: string; message: string; location?: unknown; details?: Record<string, unknown>};
  warnings: Diagnostic[];
}

export function successEnvelope(
  message: string,
  data: unknown,
  warnings: Diagnostic[] = [],
): SuccessEnvelope {
  return {ok: true, message, data, warnings};
}

export function failureEnvelope(error: StratosError, warnings: Diagnostic[] = []): FailureEnvelope {
  const causes = causeChain(error);
  const details = {...(error.details ?? {}), ...(causes.length > 0 ? {causes} : {})};
  return {
    ok: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.location === undefined ? {} : {location: error.location}),
      ...(Object.keys(details).length > 0 ? {details} : {}),
    },
    warnings,
  };
}

/** The messages (and codes, where known) of `error.cause`, `error.cause.cause`, ... */
export function causeChain(error: unknown): {message: string; code?: string}[] {
  const chain: {message: string; code?: string}[] = [];
  let current = (error as {cause?: unknown}).cause;
  const seen = new Set<unknown>();
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < 10) {
    seen.add(current);
    const message = describeCauseText(current);
    chain.push(isStratosError(current) ? {message, code: current.code} : {message});
    current = (current as {cause?: unknown}).cause;
  }
  return chain;
}
