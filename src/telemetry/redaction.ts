/**
 * The one redaction step every recorded value passes through (span attributes, run events, console lines, run.json
 * summaries, export diagnostics). Two rules: values of credential-like keys are never recorded, and every known
 * secret value (resolved headers, referenced environment variables and files, registered tokens) is replaced
 * wherever it appears inside a string.
 * Credential values registered process-wide (OAuth tokens and client secrets by the credential store, every value
 * a `{env:}` or `{file:}` reference resolved to, every secret a Redactor is given) are removed as well, so the
 * CLI's output channels (the --json envelope, error messages and causes, the echo of workflow console output)
 * redact with the same rules as the artifacts: see {@link redactOutputText} and {@link redactOutputValue}.
 */
import {redactCredentialSecrets, registerCredentialSecret} from '../errors/authentication-error.ts';

export const REDACTED = '[REDACTED]';

/** Keys whose values are credentials by name: `authorization`, `x-api-key`, `client_secret`, `GITHUB_TOKEN` ... */
// Plural `tokens` is left out on purpose: `gen_ai.usage.input_tokens` and `max_tokens` are counts.
const credentialKey =
  /(^|[._\-\s])(authorization|auth|cookie|set-cookie|passwords?|passwd|secrets?|token|api[-_]?keys?|apikeys?|private[-_]?keys?|credentials?|bearer)($|[._\-\s])|(token|secret|password|apikey|api_key)$/i;

/** Shorter values are too common to be replaced inside arbitrary text without destroying it. */
const MIN_SECRET_LENGTH = 6;

export function isCredentialKey(key: string): boolean {
  return credentialKey.test(key);
}

export class Redactor {
  #secrets: string[] = [];

  /** Adds a value that must never be recorded; short values are ignored (see MIN_SECRET_LENGTH). */
  addSecret(value: string | undefined): void {
    if (value === undefined) return;
    for (const candidate of secretForms(value)) {
      if (candidate.length < MIN_SECRET_LENGTH || this.#secrets.includes(candidate)) continue;
      registerCredentialSecret(candidate);
      this.#secrets.push(candidate);
      // Longest first, so a secret containing another is replaced whole.
      this.#secrets.sort((a, b) => b.length - a.length);
    }
  }

  get secretCount(): number {
    return this.#secrets.length;
  }

  redactString(text: string): string {
    let result = redactCredentialSecrets(text);
    for (const secret of this.#secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    return result;
  }

  /** A deep copy of a JSON-like value with secret values removed from its strings; keys and shape are kept. */
  redactStrings(value: unknown): unknown {
    if (typeof value === 'string') return this.redactString(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => this.redactStrings(item));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = this.redactStrings(item);
    return out;
  }

  /** A deep copy of a JSON-like value with credential keys and secret values removed. */
  redactValue(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.redactString(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > 20) return '[depth limit]';
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Counts such as `gen_ai.usage.input_tokens` are numbers; only text or structures can hold a credential.
      const hidden =
        isCredentialKey(key) && (typeof item === 'string' || (typeof item === 'object' && item !== null));
      out[key] = hidden ? REDACTED : this.redactValue(item, depth + 1);
    }
    return out;
  }
}

/** A secret as written and in the encodings it commonly travels in (`Bearer x`, base64 of `user:pass`). */
function secretForms(value: string): string[] {
  const forms = [value];
  const bearer = /^(bearer|basic|token)\s+(.+)$/i.exec(value.trim());
  if (bearer?.[2] !== undefined) forms.push(bearer[2]);
  return forms;
}

/** Environment variables whose names say they hold a credential; their values are treated as secrets. */
export function credentialEnvironmentValues(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '' && isCredentialKey(key)) values.push(value);
  }
  return values;
}

const outputRedactor = new Redactor();

/**
 * Registers the values of credential-named environment variables (`GITHUB_TOKEN` ...) as secrets of the process,
 * as every run's artifacts do.
 */
export function registerEnvironmentSecrets(env: NodeJS.ProcessEnv): void {
  for (const value of credentialEnvironmentValues(env)) outputRedactor.addSecret(value);
}

/** Text for a terminal or pipe with every secret known to the process replaced by `[REDACTED]`. */
export function redactOutputText(text: string): string {
  return outputRedactor.redactString(text);
}

/** A JSON-like value (a --json envelope) with secrets removed from its strings; field names stay. */
export function redactOutputValue<T>(value: T): T {
  return outputRedactor.redactStrings(value) as T;
}
