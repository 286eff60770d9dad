export {
  type InvocationTelemetry,
  type OperationScope,
  type OperationSpec,
  silentTelemetry,
  type TelemetryAttributes,
} from './invocation-telemetry.ts';
