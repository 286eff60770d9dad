/**
 * The two description fields and their budgets (docs/contributing/design-decisions.md "Description budgets"). Lengths are Unicode code
 * points of the parsed string, nothing trimmed: an emoji or a CJK character counts once, a line break counts too.
 */
import {isScalar} from 'yaml';
import {fieldLabel} from './map-entries.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

/** Hard limit of `shortDescription`, in code points. Over it is STRATOS_MANIFEST_DESCRIPTION_TOO_LONG. */
export const shortDescriptionLimit = 400;
/** Authoring target of `shortDescription` (about 50 tokens). Over it is a warning. */
export const shortDescriptionTarget = 200;
/** Hard limit of `longDescription`, in code points. */
export const longDescriptionLimit = 12000;
/** Authoring target of `longDescription` (about 1,000 tokens). Over it is a warning. */
export const longDescriptionTarget = 4000;

/** Characters that break a line: the description rule names these five, not only `\n`. */
const lineBreaks: Readonly<Record<string, string>> = {
  '\n': 'a line feed (\\n)',
  '\r': 'a carriage return (\\r)',
  '\u0085': 'a next-line character (U+0085)',
  '\u2028': 'a line separator (U+2028)',
  '\u2029': 'a paragraph separator (U+2029)',
};

/**
 * Control characters a description may not hold: C0 and C1 controls (escape sequences that clear or recolor a
 * terminal) except tab and the line breaks above, plus DEL.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const forbiddenControl = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/u;

/** Characters that show nothing: zero-width spaces and joiners, the word joiner, the byte-order mark. */
const invisible = /[\u200b-\u200d\u2060\ufeff\u00ad]/gu;

// JavaScript's \s covers U+2028 and U+2029 but not U+0085, which YAML authors can still write as "\N".
const surroundingWhitespace = /^[\s\u0085]+|[\s\u0085]+$/gu;

/**
 * Counts the Unicode code points of a string: `countCodePoints('🚀 go')` is 4, where `length` is 5.
 *
 * @example
 * countCodePoints('café'); // 4
 */
export function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

interface DescriptionRule {
  limit: number;
  target: number;
  shortenHint: string;
  purpose: string;
}

const rules = {
  shortDescription: {
    limit: shortDescriptionLimit,
    target: shortDescriptionTarget,
    shortenHint: 'Shorten it; the manual belongs in longDescription.',
    purpose: 'the catalog text that helps an agent select this workflow: its action, domain and boundaries',
  },
  longDescription: {
    limit: longDescriptionLimit,
    target: longDescriptionTarget,
    shortenHint:
      'Shorten it to what an agent needs for correct use; structural rules belong in the Zod schemas.',
    purpose: 'the manual for correct use: preconditions, input conventions, output, side effects and gotchas',
  },
} as const satisfies Record<string, DescriptionRule>;

/**
 * Validates `shortDescription` or `longDescription`: a non-blank string within its hard limit, a warning past
 * its target, and for the short one no internal line break. Returns the string unchanged when it has no error.
 */
export function validateDescription(
  ctx: ValidationContext,
  entry: ManifestEntry,
  field: keyof typeof rules,
): string | undefined {
  const rule = rules[field];
  const value = isScalar(entry.value) ? entry.value.value : undefined;
  if (value === null || (typeof value === 'string' && isBlank(value))) {
    ctx.report(
      'STRATOS_MANIFEST_DESCRIPTION_BLANK',
      `${fieldLabel(entry)} is blank. Write ${rule.purpose}.`,
      entry,
    );
    return undefined;
  }
  if (typeof value !== 'string') {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(entry)} must be a string; got ${describeValue(entry.value)}. Write ${rule.purpose}.`,
      entry,
    );
    return undefined;
  }
  let valid = true;
  const control = forbiddenControl.exec(value);
  if (control !== null) {
    valid = false;
    const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    ctx.report(
      'STRATOS_MANIFEST_DESCRIPTION_CONTROL_CHARACTER',
      `${fieldLabel(entry)} contains the control character U+${code} at code point ${countCodePoints(value.slice(0, control.index)) + 1}; ` +
        'descriptions are plain text (tabs and line breaks are allowed). Remove it.',
      entry,
    );
  }
  const count = countCodePoints(value);
  if (count > rule.limit) {
    valid = false;
    ctx.report(
      'STRATOS_MANIFEST_DESCRIPTION_TOO_LONG',
      `${fieldLabel(entry)} has ${count} code points; the limit is ${rule.limit}. ${rule.shortenHint}`,
      entry,
    );
  } else if (count > rule.target) {
    ctx.report(
      'STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET',
      `${fieldLabel(entry)} has ${count} code points, over the authoring target of about ${rule.target} ` +
        `(the limit is ${rule.limit}). Consider tightening it.`,
      entry,
      {severity: 'warning'},
    );
  }
  if (field === 'shortDescription') {
    const lineBreak = internalLineBreak(value);
    if (lineBreak !== undefined) {
      valid = false;
      ctx.report(
        'STRATOS_MANIFEST_DESCRIPTION_LINE_BREAK',
        `${fieldLabel(entry)} contains ${lineBreak} inside the text; it must be one line. ` +
          "Join the lines, or use YAML '>-' to fold source lines into one paragraph.",
        entry,
      );
    }
  }
  return valid ? value : undefined;
}

/** Names the first line break between non-whitespace text, or undefined; leading and trailing ones are fine. */
export function internalLineBreak(text: string): string | undefined {
  const inner = text.replace(surroundingWhitespace, '');
  for (const char of inner) {
    const name = lineBreaks[char];
    if (name !== undefined) return name;
  }
  return undefined;
}

/** Blank: nothing but whitespace and invisible characters (a description of zero-width spaces says nothing). */
function isBlank(text: string): boolean {
  return text.replace(invisible, '').replace(surroundingWhitespace, '') === '';
}
