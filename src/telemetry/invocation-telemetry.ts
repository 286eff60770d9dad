/**
 * The one way primitives record what they do: `operation()` times one unit of work (a span plus start/end run
 * events), `event()` records a point observation. Every invocation's execution context carries one of these.
 * This module holds the interface and a recorder that records nothing; the telemetry implementation provides the
 * real one.
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
}

const silentScope: OperationScope = {setAttributes() {}, addEvent() {}};

export const silentTelemetry: InvocationTelemetry = {
  operation: (_spec, fn) => fn(silentScope),
  event() {},
};
