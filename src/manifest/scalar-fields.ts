/** Readers for the leaf values of workflow.yaml: strings, URLs, ports and string maps and lists. */
import {isScalar} from 'yaml';
import type {ErrorCode} from '../errors/index.ts';
import {
  checkKnownKeys,
  fieldLabel,
  readMapEntries,
  readSeqEntries,
  requireList,
  requireMapping,
} from './map-entries.ts';
import {describeValue, type ManifestEntry, quote, type ValidationContext} from './validation-context.ts';

/** An HTTP header name: an RFC 9110 token. */
const headerNamePattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The entry's value as a string, or a FIELD_INVALID diagnostic and undefined. A number or boolean gets a hint to
 * quote it, because YAML reads `1.0` and `yes`-like words as other types.
 */
export function readString(
  ctx: ValidationContext,
  entry: ManifestEntry,
  options: {nonBlank?: boolean; hint?: string; code?: ErrorCode} = {},
): string | undefined {
  const code = options.code ?? 'STRATOS_MANIFEST_FIELD_INVALID';
  const value = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof value !== 'string') {
    ctx.report(
      code,
      `${fieldLabel(entry)} must be a string${hintOf(options)}; got ${describeValue(entry.value)}.${quoteAdvice(ctx, entry)}`,
      entry,
    );
    return undefined;
  }
  if (options.nonBlank === true && value.trim() === '') {
    ctx.report(
      code,
      `${fieldLabel(entry)} must not be empty${hintOf(options)}. Fill it in or remove the field.`,
      entry,
    );
    return undefined;
  }
  return value;
}

/** The entry's value as an absolute URL with one of the allowed schemes, or a FIELD_INVALID diagnostic. */
export function readUrl(
  ctx: ValidationContext,
  entry: ManifestEntry,
  schemes: readonly ('http' | 'https')[],
  example: string,
): string | undefined {
  const value = readString(ctx, entry, {hint: `such as ${example}`});
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || !schemes.some((scheme) => url.protocol === `${scheme}:`)) {
    const kind = schemes.join(' or ');
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(entry)} must be an absolute ${kind} URL such as ${example}; got ${quote(value)}.`,
      entry,
    );
    return undefined;
  }
  return value;
}

/** The entry's value as a TCP port (an integer 1-65535), or a FIELD_INVALID diagnostic. */
export function readPort(ctx: ValidationContext, entry: ManifestEntry): number | undefined {
  const value = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535) return value;
  const unquote = typeof value === 'string' ? ' Write the number without quotes.' : '';
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} must be a port number, an integer from 1 to 65535; got ${describeValue(entry.value)}.${unquote}`,
    entry,
  );
  return undefined;
}

/**
 * The entry's value as a map of string to string (headers, environment variables). Values are kept verbatim:
 * `{env:NAME}` and `{file:path}` references are resolved when the value is used, not here.
 */
export function readStringMap(
  ctx: ValidationContext,
  entry: ManifestEntry,
  kind: 'header' | 'environment variable',
): Record<string, string> | undefined {
  const map = requireMapping(ctx, entry, `of ${kind} names to string values`);
  if (map === undefined) return undefined;
  const pairs: [string, string][] = [];
  let valid = true;
  for (const child of readMapEntries(ctx, entry, map)) {
    const nameProblem = kind === 'header' ? headerNameProblem(child.key) : environmentNameProblem(child.key);
    if (nameProblem !== undefined) {
      valid = false;
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        `${fieldLabel(child)} is not a valid ${kind} name: ${nameProblem}`,
        child,
        {at: 'key'},
      );
    }
    const value = readString(ctx, child);
    if (value === undefined) valid = false;
    else pairs.push([child.key, value]);
  }
  // fromEntries defines own properties, so a key such as __proto__ cannot change the object's prototype.
  return valid ? Object.fromEntries(pairs) : undefined;
}

/** The entry's value as a list of strings (command arguments), or diagnostics for each non-string item. */
export function readStringList(ctx: ValidationContext, entry: ManifestEntry): string[] | undefined {
  const seq = requireList(ctx, entry, 'of strings');
  if (seq === undefined) return undefined;
  const values: string[] = [];
  let valid = true;
  for (const item of readSeqEntries(ctx, entry, seq)) {
    const value = readString(ctx, item);
    if (value === undefined) valid = false;
    else values.push(value);
  }
  return valid ? values : undefined;
}

/** Reports unknown keys of a mapping entry and returns its entries by key, for fixed-shape objects. */
export function readFixedMapping(
  ctx: ValidationContext,
  entry: ManifestEntry,
  allowed: readonly string[],
  hint: string,
): Map<string, ManifestEntry> | undefined {
  const map = requireMapping(ctx, entry, hint);
  if (map === undefined) return undefined;
  const entries = readMapEntries(ctx, entry, map);
  checkKnownKeys(ctx, entry, entries, allowed);
  return new Map(entries.map((child) => [child.key, child]));
}

function hintOf(options: {hint?: string}): string {
  return options.hint === undefined ? '' : ` ${options.hint}`;
}

function quoteAdvice(ctx: ValidationContext, entry: ManifestEntry): string {
  const value = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') return '';
  const source = ctx.sourceOf(entry.value) ?? String(value);
  return ` Quote it to make it a string: "${source}".`;
}

function headerNameProblem(name: string): string | undefined {
  if (headerNamePattern.test(name)) return undefined;
  return "header names are letters, digits and the symbols !#$%&'*+.^_`|~- with no spaces or colons. Rename it.";
}

function environmentNameProblem(name: string): string | undefined {
  if (name !== '' && !name.includes('=') && !name.includes('\0')) return undefined;
  return 'an environment variable name must be non-empty and contain no = sign. Rename it.';
}
