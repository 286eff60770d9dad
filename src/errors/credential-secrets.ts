/**
 * The process-wide set of secret values: every credential Stratos has read or obtained in this process (OAuth
 * tokens and client secrets, values resolved from `{env:}`/`{file:}` references, credential-named environment
 * variables, values a run registers). Nothing this process shows or records may contain one of them: error
 * messages, run artifacts and the CLI's output all replace them with `[REDACTED]` (see
 * {@link redactCredentialSecrets}).
 *
 * A secret is registered in the forms it travels in: as written, URL-encoded (form bodies), without a `Bearer ` /
 * `Basic ` / `token ` scheme word, and, for a multi-line value such as a PEM key, each of its lines that could be
 * secret on its own (see {@link isSecretLine}), so a key printed line by line is removed line by line.
 */

export const REDACTED = '[REDACTED]';

/** Shorter values are too common to replace inside text without destroying it. */
export const MIN_SECRET_LENGTH = 6;

/** A line of a multi-line secret counts only from this length: short lines (`}`, `==`, `MIIE`) are everyday text. */
export const MIN_SECRET_LINE_LENGTH = 16;

const secrets = new Set<string>();
let ordered: readonly string[] | undefined;
let pattern: RegExp | undefined;

/**
 * Remembers a credential value so no output channel or artifact of this process can ever contain it. Values shorter
 * than {@link MIN_SECRET_LENGTH} are ignored.
 *
 * @example
 * registerCredentialSecret(tokens.access_token);
 */
export function registerCredentialSecret(value: string | undefined): void {
  if (value === undefined) return;
  for (const form of secretForms(value)) {
    if (form.length < MIN_SECRET_LENGTH || secrets.has(form)) continue;
    secrets.add(form);
    ordered = undefined;
    pattern = undefined;
  }
}

/** Every registered secret form, longest first (so a secret containing another is replaced whole). */
export function credentialSecrets(): readonly string[] {
  ordered ??= [...secrets].sort((a, b) => b.length - a.length);
  return ordered;
}

/** `text` with every registered secret replaced by `[REDACTED]`, in one left-to-right pass. */
export function redactCredentialSecrets(text: string): string {
  const found = secretPattern();
  return found === undefined ? text : text.replace(found, REDACTED);
}

/**
 * One pattern over every secret: at each position the longest secret that matches wins, and a match is never
 * searched again, so what is left holds no secret whole. Global, so use it with `replace` or `matchAll` only.
 */
export function secretPattern(): RegExp | undefined {
  if (pattern !== undefined || secrets.size === 0) return pattern;
  pattern = new RegExp(credentialSecrets().map(escapePattern).join('|'), 'g');
  return pattern;
}

/**
 * Whether one line of a multi-line secret is a secret by itself: at least {@link MIN_SECRET_LINE_LENGTH}
 * characters and not the armour every key of its kind shares (`-----BEGIN PRIVATE KEY-----`, `-----END ...`, the
 * `Proc-Type:`/`DEK-Info:`/`Comment:` headers), which would otherwise be replaced in every text that mentions a key.
 */
export function isSecretLine(line: string): boolean {
  return (
    line.length >= MIN_SECRET_LINE_LENGTH &&
    !/^-{5}(BEGIN|END)\b.*-{5}$/.test(line) &&
    !/^(Proc-Type|DEK-Info|Comment):/i.test(line)
  );
}

function secretForms(value: string): string[] {
  const forms = [value];
  const scheme = /^(bearer|basic|token)\s+(.+)$/i.exec(value.trim());
  if (scheme?.[2] !== undefined) forms.push(scheme[2]);
  if (/[\r\n]/.test(value)) {
    for (const line of value.split(/\r?\n|\r/)) {
      const trimmed = line.trim();
      if (isSecretLine(trimmed)) forms.push(trimmed);
    }
  }
  return [...forms, ...forms.map((form) => encodeURIComponent(form))];
}

function escapePattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
