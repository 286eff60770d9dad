/** The one error type of Stratos: a stable code, a whole-sentence message, the standard cause, a source location. */
import type {ErrorCode} from './codes.ts';

const brand = Symbol.for('stratos.error');

/** Where in an authored file a problem is. Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface StratosErrorOptions {
  cause?: unknown;
  location?: SourceLocation | undefined;
  details?: Record<string, unknown> | undefined;
}

/**
 * Base class of every error Stratos raises on purpose. `code` is API: it is never renamed.
 * A check with {@link isStratosError} works across two copies of the package.
 */
export class StratosError extends Error {
  readonly code: ErrorCode;
  readonly location: SourceLocation | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: StratosErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause});
    this.name = 'StratosError';
    this.code = code;
    this.location = options.location;
    this.details = options.details;
    Object.defineProperty(this, brand, {value: true});
  }
}

/** True for a StratosError from any copy of the package. */
export function isStratosError(value: unknown): value is StratosError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
