/**
 * The redaction of every CLI output channel: the same process-wide secrets and rules as the run artifacts
 * (src/telemetry/redaction.ts), for the --json envelope, error messages with their causes and the live echo of
 * workflow console output (written in pieces: StreamRedactor).
 */
export {registerEnvironmentSecrets} from '../telemetry/environment-secrets.ts';
export {redactOutputText, redactOutputValue} from '../telemetry/redaction.ts';
export {StreamRedactor} from '../telemetry/stream-redactor.ts';
