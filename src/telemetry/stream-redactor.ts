/**
 * Redaction of text that arrives in pieces (what workflow code writes to `process.stdout` and `process.stderr`).
 * Redacting each piece alone lets a secret written as two writes through whole; buffering whole lines would delay
 * every prompt. Instead only a tail that could be the start of a secret is held back, until the next piece shows
 * whether it is one: ordinary text passes at once, and the redacted result is the same as if everything had been
 * written in one piece. What is held is at most one character shorter than the longest secret.
 */
import {
  credentialSecrets,
  REDACTED,
  redactCredentialSecrets,
  secretPattern,
} from '../errors/credential-secrets.ts';

/** The redaction state of one output destination; one instance per place the text ends up. */
export class StreamRedactor {
  #held = '';

  /**
   * Takes the next piece and returns what can be shown now, redacted; a tail that may begin a secret waits for the
   * next piece or {@link flush}.
   *
   * @example
   * const redactor = new StreamRedactor();
   * write(redactor.push(chunk)); // for every chunk
   * write(redactor.flush()); // at the end, and before other text goes to the same place
   */
  push(text: string): string {
    const pending = this.#held + text;
    const {redacted, heldFrom} = redactPending(pending);
    this.#held = pending.slice(heldFrom);
    return redacted;
  }

  /** Everything held back, redacted: for the end of the output or before other text goes to the same place. */
  flush(): string {
    const held = this.#held;
    this.#held = '';
    return redactCredentialSecrets(held);
  }

  /** Whether text is held back. */
  get holding(): boolean {
    return this.#held !== '';
  }
}

/**
 * Redacts `text` up to the first position where a secret may begin that the text does not finish: a position that
 * no finished match covers and from which the rest of the text is a proper prefix of a secret. The scan is the one
 * `redactCredentialSecrets` makes (leftmost, longest secret first), so the positions it resumes from are the ones a
 * scan of the whole output would visit.
 */
function redactPending(text: string): {redacted: string; heldFrom: number} {
  const pattern = secretPattern();
  if (pattern === undefined) return {redacted: text, heldFrom: text.length};
  const secrets = credentialSecrets();
  const tailStart = Math.max(0, text.length - ((secrets[0]?.length ?? 1) - 1));
  const firstCharacters = new Set(secrets.map((secret) => secret[0]));
  const parts: string[] = [];
  let position = 0;
  let heldFrom: number | undefined;
  for (const match of text.matchAll(pattern)) {
    // The positions up to the match and its start (never inside it: a scan does not start there) may begin a
    // secret the text does not finish; a match that may grow into a longer secret is held whole.
    heldFrom = findUnfinished(text, Math.max(position, tailStart), match.index + 1, secrets, firstCharacters);
    if (heldFrom !== undefined) break;
    parts.push(text.slice(position, match.index), REDACTED);
    position = match.index + match[0].length;
  }
  heldFrom ??= findUnfinished(text, Math.max(position, tailStart), text.length, secrets, firstCharacters);
  heldFrom ??= text.length;
  parts.push(text.slice(position, heldFrom));
  return {redacted: parts.join(''), heldFrom};
}

/** The first position in [from, to) from which the rest of `text` is the start of a longer secret. */
function findUnfinished(
  text: string,
  from: number,
  to: number,
  secrets: readonly string[],
  firstCharacters: ReadonlySet<string | undefined>,
): number | undefined {
  for (let index = from; index < to; index++) {
    if (!firstCharacters.has(text[index])) continue;
    const rest = text.slice(index);
    if (secrets.some((secret) => secret.length > rest.length && secret.startsWith(rest))) return index;
  }
  return undefined;
}
