/**
 * The one way primitives record what they do: `operation()` times one unit of work (a span plus start/end run
 * events), `begin()` times an observation whose start and end are reported separately (a harness says a tool
 * started, later that it ended), `event()` records a point observation. Every invocation's execution context carries one of these.
 * This module holds the interface and a recorder that records nothing (for code running without a recorded run);
 * InvocationRecorder is the real one.
 */

/** Attribute values follow OpenTelemetry: primitives or arrays of one primitive type. */
export type TelemetryAttributes = Record<
  string,
  string | number | boolean | string[] | number[] | boolean[] | undefined
>;

export interface OperationSpec {
  /** What kind of operation: `mcp.connect`, `mcp.call`, `agent.execute`, `workflow.child` ... */
  kind: string;
  /** Span name, such as `tools/call get_me`. */
  name: string;
  attributes?: TelemetryAttributes;
  /**
   * When the observation began (epoch ms), for a source that reports its own times (OpenCode's event stream);
   * otherwise now. Kept within the parent's span and never after now.
   */
  startMs?: number;
}

/** How an observation relates to its parent's lifetime. */
export interface BeginOptions {
  /**
   * Work the parent started that goes on after it (a background task, a sub-agent the harness runs on after the
   * spawning tool call returned): not closed when the parent ends, and may begin under a parent that already
   * ended, since the caller names the parent explicitly. Closed as `incomplete` only when the invocation ends.
   */
  outlivesParent?: boolean;
}

export interface OperationScope {
  setAttributes(attributes: TelemetryAttributes): void;
  addEvent(name: string, attributes?: TelemetryAttributes): void;
  /** Begins an observation under this operation, wherever the call is made (see InvocationTelemetry.begin). */
  begin(spec: OperationSpec, options?: BeginOptions): OperationHandle;
}

/**
 * An observation begun with `begin()`, open until one of `end`, `fail` or `cancel` is called (the first one counts;
 * later calls do nothing). One still open when its parent operation or its invocation ends is closed as
 * `incomplete`: its end was never observed.
 */
export interface OperationHandle {
  setAttributes(attributes: TelemetryAttributes): void;
  /** Begins an observation under this one (a sub-agent's tool call under the tool call that spawned it). */
  begin(spec: OperationSpec, options?: BeginOptions): OperationHandle;
  addEvent(name: string, attributes?: TelemetryAttributes): void;
  /** The observation ended as it should; `attributes` are added first (token usage known only at the end). */
  end(attributes?: TelemetryAttributes, endMs?: number): void;
  /** The observation ended with an error (`error.type` is its `code`, else its `name`). */
  fail(error: unknown, attributes?: TelemetryAttributes, endMs?: number): void;
  /** The observation was stopped on purpose; recorded as cancelled, not as an error. */
  cancel(attributes?: TelemetryAttributes, endMs?: number): void;
}

export interface InvocationTelemetry {
  /** Runs `fn` as one recorded operation; its outcome (success, error, cancellation) is recorded as it is. */
  operation<T>(spec: OperationSpec, fn: (scope: OperationScope) => Promise<T>): Promise<T>;
  /**
   * Begins an observation whose end is reported later through the handle: a span and an `operation.start` record
   * now, the `operation.end` record when it settles. Parented like `operation()`: under the operation active
   * where `begin` is called, else the workflow span.
   */
  begin(spec: OperationSpec): OperationHandle;
  /** A point observation, such as a completion whose start was never seen. */
  event(name: string, attributes?: TelemetryAttributes): void;
  /**
   * A credential obtained while running (an OAuth access token, a resolved header): it is replaced by
   * `[REDACTED]` wherever it would appear in a span, event or log of the run.
   */
  registerSecret(value: string): void;
}

export const silentHandle: OperationHandle = {
  setAttributes() {},
  begin: () => silentHandle,
  addEvent() {},
  end() {},
  fail() {},
  cancel() {},
};

export const silentScope: OperationScope = {setAttributes() {}, addEvent() {}, begin: () => silentHandle};

export const silentTelemetry: InvocationTelemetry = {
  operation: (_spec, fn) => fn(silentScope),
  begin: () => silentHandle,
  event() {},
  registerSecret() {},
};
