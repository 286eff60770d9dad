/**
 * The one way primitives record what they do: `operation()` times one unit of work (a span plus start/end run
 * events), `event()` records a point observation. Every invocation's execution context carries one of these.
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
}

export interface OperationScope {
  setAttributes(attributes: TelemetryAttributes): void;
  addEvent(name: string, attributes?: TelemetryAttributes): void;
}

export interface InvocationTelemetry {
  /** Runs `fn` as one recorded operation; its outcome (success, error, cancellation) is recorded as it is. */
  operation<T>(spec: OperationSpec, fn: (scope: OperationScope) => Promise<T>): Promise<T>;
  /** A point observation, such as a completion whose start was never seen. */
  event(name: string, attributes?: TelemetryAttributes): void;
  /**
   * A credential obtained while running (an OAuth access token, a resolved header): it is replaced by
   * `[REDACTED]` wherever it would appear in a span, event or log of the run.
   */
  registerSecret(value: string): void;
}

const silentScope: OperationScope = {setAttributes() {}, addEvent() {}};

export const silentTelemetry: InvocationTelemetry = {
  operation: (_spec, fn) => fn(silentScope),
  event() {},
  registerSecret() {},
};
