/**
 * Which recorded span is active: operations started inside another operation of the same invocation nest under
 * it, console messages attach to it, and a child workflow started inside it hangs under it.
 */
import {AsyncLocalStorage} from 'node:async_hooks';
import type {ExportedSpan} from './export/trace-export.ts';

export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  kind: string;
  name: string;
  startMs: number;
  attributes: Record<string, unknown>;
  exported: ExportedSpan | undefined;
  ended: boolean;
}

export interface ScopeOwner {
  recordConsole(level: string, message: string, span: SpanRecord): void;
}

export interface RecordingScope {
  /** The invocation recorder that owns `span` (compared by identity). */
  owner: ScopeOwner;
  span: SpanRecord;
}

export const recordingScope = new AsyncLocalStorage<RecordingScope>();

// The monotonic clock anchored once to the wall clock: process.hrtime, not the global `performance`, whose first
// use loads ten of Node's internal modules on every run (docs/performance.md).
const anchorEpochMs = Date.now();
const anchorNs = process.hrtime.bigint();

/** Milliseconds since the epoch with sub-millisecond precision (OpenTelemetry reads numbers as epoch ms). */
export function nowMs(): number {
  return anchorEpochMs + Number(process.hrtime.bigint() - anchorNs) / 1e6;
}
