/**
 * The error of MCP OAuth sign-in, refresh and the credential store. It is also the one place those errors are
 * built, so it is the one place secrets are removed: every credential value Stratos has read or obtained in this
 * process is registered (credential-secrets.ts), and the message, the details and the whole cause
 * chain are scrubbed of them here. Causes are copied as plain errors (name, message, code), never kept as the
 * original objects, which may hold responses, request bodies or headers. Harness authentication
 * (`STRATOS_AUTH_REQUIRED`) uses the same class.
 */
import type {ErrorCode} from './codes.ts';
import {redactCredentialSecrets} from './credential-secrets.ts';
import {StratosError} from './stratos-error.ts';

export type AuthenticationErrorCode = Extract<
  ErrorCode,
  `STRATOS_AUTH_${string}` | `STRATOS_CREDENTIALS_${string}`
>;

export interface AuthenticationErrorOptions {
  /** The `mcp.servers` key, when one is known. */
  server?: string | undefined;
  /** The MCP server URL (not a secret). */
  serverUrl?: string | undefined;
  cause?: unknown;
  details?: Record<string, unknown> | undefined;
}

/**
 * Sign-in, token refresh or the credential store failed. Catch it in workflow code like any StratosError; `code`
 * says what happened (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`) and `server` names the MCP server when known.
 *
 * @example
 * try {
 *   const company = await createCompany();
 * } catch (error) {
 *   if (error instanceof AuthenticationError && error.code === 'STRATOS_AUTH_BROWSER_FAILED') ...
 * }
 */
export class AuthenticationError extends StratosError {
  declare readonly code: AuthenticationErrorCode;
  readonly server: string | undefined;
  readonly serverUrl: string | undefined;

  constructor(code: AuthenticationErrorCode, message: string, options: AuthenticationErrorOptions = {}) {
    const details: Record<string, unknown> = {...options.details};
    if (options.server !== undefined) details.server = options.server;
    if (options.serverUrl !== undefined) details.serverUrl = options.serverUrl;
    super(code, redactCredentialSecrets(message), {
      cause: options.cause === undefined ? undefined : copyCause(options.cause, 0),
      details:
        Object.keys(details).length === 0 ? undefined : (redactValue(details, 0) as Record<string, unknown>),
    });
    this.name = 'AuthenticationError';
    this.server = options.server;
    this.serverUrl = options.serverUrl;
  }
}

function copyCause(cause: unknown, depth: number): unknown {
  if (cause instanceof AuthenticationError) return cause;
  if (depth > 5) return undefined;
  if (!(cause instanceof Error)) return new Error(redactCredentialSecrets(String(cause)));
  const inner = (cause as {cause?: unknown}).cause;
  const copy = new Error(
    redactCredentialSecrets(cause.message),
    inner === undefined ? undefined : {cause: copyCause(inner, depth + 1)},
  );
  copy.name = cause.name;
  const code = (cause as {code?: unknown}).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, {code});
  return copy;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactCredentialSecrets(value);
  if (value === null || typeof value !== 'object' || depth > 10) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, depth + 1)]));
}
