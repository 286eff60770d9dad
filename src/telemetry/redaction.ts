/**
 * The one redaction step every recorded value passes through (span attributes, run events, console lines, run.json
 * summaries, export diagnostics). Two rules: values of credential-like keys are never recorded, and every known
 * secret value (resolved headers, referenced environment variables and files, registered tokens) is replaced
 * wherever it appears inside a string.
 * Secrets are one process-wide set (errors/credential-secrets.ts: OAuth tokens and client secrets, every value a
 * `{env:}` or `{file:}` reference resolved to, credential environment variables, every secret a Redactor is given),
 * so the CLI's output channels (the --json envelope, error messages and causes, the echo of workflow console output)
 * redact with the same rules as the artifacts: see {@link redactOutputText}, {@link redactOutputValue} and, for
 * text written in pieces, stream-redactor.ts.
 */
import {REDACTED, redactCredentialSecrets, registerCredentialSecret} from '../errors/credential-secrets.ts';

export {REDACTED};

/**
 * Keys whose values are credentials by name: `authorization`, `x-api-key`, `client_secret`, `GITHUB_TOKEN`,
 * `DB_PASS`, `GH_PAT`, `AWS_ACCESS_KEY_ID`, `SENTRY_DSN`, `SLACK_WEBHOOK_URL` ... A word must stand alone (`PATH`,
 * `passed` and `tokenizer` are not credentials); `pwd` only after another word (`DB_PWD`, never the shell's `PWD`).
 */
// Plural `tokens` is left out on purpose: `gen_ai.usage.input_tokens` and `max_tokens` are counts.
const credentialKey = new RegExp(
  [
    String.raw`(^|[._\-\s])(authorization|auth|cookie|set-cookie|passwords?|passwd|passphrase|pass|secrets?|token|api[-_]?keys?|apikeys?|private[-_]?keys?|access[-_]?keys?([-_]?ids?)?|credentials?|bearer|pat|dsn|webhooks?|connection[-_]?strings?)($|[._\-\s])`,
    String.raw`.[._\-]pwd($|[._\-\s])`,
    '(token|secret|password|apikey|api_key)$',
  ].join('|'),
  'i',
);

export function isCredentialKey(key: string): boolean {
  return credentialKey.test(key);
}

/** Redaction with the process's secrets, for one run's records; values added here are secrets of the process. */
export class Redactor {
  /** Adds a value that must never be recorded (in the forms of registerCredentialSecret; short values are ignored). */
  addSecret(value: string | undefined): void {
    registerCredentialSecret(value);
  }

  redactString(text: string): string {
    return redactCredentialSecrets(text);
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

/**
 * A structured value (tool arguments, a tool result) as the text of one attribute: JSON with the values of
 * credential-like keys replaced by `[REDACTED]` first, since inside a string the recorder no longer sees keys; a
 * string stays as it is. Known secret values and the length cap are applied where every attribute is recorded.
 * Undefined when there is no value.
 */
export function toRecordedJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(redactor.redactValue(value)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Text for a terminal or pipe with every secret known to the process replaced by `[REDACTED]`. */
export function redactOutputText(text: string): string {
  return redactCredentialSecrets(text);
}

/** A JSON-like value (a --json envelope) with secrets removed from its strings; field names stay. */
export function redactOutputValue<T>(value: T): T {
  return redactor.redactStrings(value) as T;
}

const redactor = new Redactor();
