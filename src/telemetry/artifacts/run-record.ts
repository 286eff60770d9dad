/**
 * The shapes of a run's artifacts: `run.json` (one record per top-level run, rewritten at start and end) and the
 * records of `events.jsonl`. Both are read back by `stratos runs list/show`; `schemaVersion` lets a later Stratos
 * read older runs.
 */
import type {SourceLocation} from '../../errors/index.ts';
import type {OperationStatus} from '../model/conventions.ts';

export const RUN_FILE = 'run.json';
export const EVENTS_FILE = 'events.jsonl';
export const LOG_FILE = 'run.log';
export const RUN_SCHEMA_VERSION = 1;

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A bounded, redacted description of an input or output value. */
export interface ValueSummary {
  /** `object`, `array`, `string` ...; `undefined` when there is no value (a failed run's output). */
  type: string;
  /** Top-level keys of an object, at most 50. */
  keys?: string[];
  /** The JSON text, cut at SUMMARY_LIMIT characters. */
  preview: string;
  truncated: boolean;
}

export interface RunRecord {
  schemaVersion: number;
  /** The run folder name: `<UTC time>-<execution id>`. */
  runId: string;
  executionId: string;
  traceId: string;
  workflow: {name: string; version: string; directory: string};
  invocationDirectory: string;
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  /** The process that runs it; a `running` record whose process is gone is a crashed run. */
  pid: number;
  stratosVersion: string;
  input: ValueSummary;
  output?: ValueSummary;
  /** `location`: the workflow's own frame of an error thrown by its code, relative to the workflow folder. */
  error?: {code: string; message: string; location?: SourceLocation};
  /** The run folder name of the interrupted run this one resumed (`stratos runs resume`). */
  resumedFrom?: string;
  /** Artifact and export problems of this run, as reported to the caller. */
  diagnostics?: {code: string; message: string}[];
}

export type EventType =
  | 'workflow.start'
  | 'workflow.end'
  | 'operation.start'
  | 'operation.end'
  | 'event'
  | 'console';

/** One line of events.jsonl. Identity fields say which invocation and span each interleaved record belongs to. */
export interface EventRecord {
  time: string;
  /** Order of records within the run (a tie-breaker for equal times). */
  seq: number;
  type: EventType;
  rootExecutionId: string;
  executionId: string;
  workflow: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string | undefined;
  /** For operations and events: the operation kind (`mcp.call`) or event name. */
  kind?: string;
  name?: string;
  status?: OperationStatus;
  durationMs?: number;
  attributes?: Record<string, unknown>;
  error?: RecordedError;
  level?: string;
  message?: string;
}

/** An operation's error as recorded: code (a Stratos code), type (the error's name), message, and its causes. */
export interface RecordedError {
  code?: string;
  type?: string;
  message: string;
  /** Where in the authored files it was thrown (`workflow.ts`, line, column), when known. */
  location?: SourceLocation;
  /** `error.cause`, its cause, ... (at most 10), each with the same fields. */
  causes?: {code?: string; type?: string; message: string}[];
}

export const SUMMARY_LIMIT = 2_000;

/** A summary of an already-redacted JSON-like value. */
export function summarizeValue(value: unknown): ValueSummary {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const truncated = text.length > SUMMARY_LIMIT;
  const summary: ValueSummary = {type, preview: truncated ? text.slice(0, SUMMARY_LIMIT) : text, truncated};
  if (type === 'object') summary.keys = Object.keys(value as object).slice(0, 50);
  return summary;
}
