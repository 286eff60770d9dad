/** Reading mappings and lists of workflow.yaml: their entries, unknown keys and missing required keys. */

import {isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq} from 'yaml';
import {formatPath} from './locate.ts';
import {MAX_MANIFEST_DIAGNOSTICS} from './manifest-limits.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

/** Names a field in a message: the top level is "workflow.yaml", a nested field is "workflow.yaml field 'x'". */
export function fieldLabel(entry: ManifestEntry): string {
  return entry.path.length === 0 ? 'workflow.yaml' : `workflow.yaml field '${formatPath(entry.path)}'`;
}

/**
 * The entries of a mapping, in source order. Keys must be scalars; numbers and booleans are taken as their text
 * (YAML reads `8080:` as a number) so the field rules still apply to them.
 */
export function readMapEntries(ctx: ValidationContext, owner: ManifestEntry, map: YAMLMap): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  for (const pair of map.items) {
    const keyNode = ctx.resolve(pair.key);
    const written = ctx.resolve(pair.value) === null ? null : (pair.value as ManifestEntry['written']);
    const keyValue = isScalar(keyNode) ? keyNode.value : undefined;
    if (
      typeof keyValue !== 'string' &&
      typeof keyValue !== 'number' &&
      typeof keyValue !== 'boolean' &&
      typeof keyValue !== 'bigint'
    ) {
      const at: ManifestEntry = {
        key: '',
        keyNode: keyNode ?? undefined,
        value: null,
        written: null,
        path: owner.path,
      };
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        `${fieldLabel(owner)} has a key that is ${describeValue(keyNode)}; keys must be plain names. Rename it.`,
        at,
        {at: 'key'},
      );
      continue;
    }
    const key = String(keyValue);
    entries.push({
      key,
      keyNode: keyNode ?? undefined,
      value: ctx.resolve(pair.value),
      written,
      path: [...owner.path, key],
    });
  }
  return entries;
}

/** The items of a list as entries whose path ends in the index. */
export function readSeqEntries(ctx: ValidationContext, owner: ManifestEntry, seq: YAMLSeq): ManifestEntry[] {
  return seq.items.map((item, index) => ({
    key: String(index),
    keyNode: undefined,
    value: ctx.resolve(item),
    written: ctx.resolve(item) === null ? null : (item as ManifestEntry['written']),
    path: [...owner.path, index],
  }));
}

/** The entry's value as a mapping, or a FIELD_INVALID diagnostic and undefined. */
export function requireMapping(
  ctx: ValidationContext,
  entry: ManifestEntry,
  hint: string,
): YAMLMap | undefined {
  if (isMap(entry.value)) return entry.value;
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} must be a mapping${hint === '' ? '' : ` ${hint}`}; got ${describeValue(entry.value)}.`,
    entry,
  );
  return undefined;
}

/** The entry's value as a list, or a FIELD_INVALID diagnostic and undefined. */
export function requireList(ctx: ValidationContext, entry: ManifestEntry, hint: string): YAMLSeq | undefined {
  if (isSeq(entry.value)) return entry.value;
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} must be a list${hint === '' ? '' : ` ${hint}`}; got ${describeValue(entry.value)}.`,
    entry,
  );
  return undefined;
}

/** Reports every entry whose key is not allowed here, with a suggestion for near misses. */
export function checkKnownKeys(
  ctx: ValidationContext,
  owner: ManifestEntry,
  entries: readonly ManifestEntry[],
  allowed: readonly string[],
): void {
  for (const entry of entries) {
    if (allowed.includes(entry.key)) continue;
    const where =
      owner.path.length === 0
        ? `workflow.yaml has an unknown top-level field '${entry.key}'.`
        : `${fieldLabel(owner)} has an unknown field '${entry.key}'.`;
    // Past the reported findings, a suggestion would never be shown: skip the edit distances.
    const suggestion =
      ctx.diagnostics.length < MAX_MANIFEST_DIAGNOSTICS ? closestName(entry.key, allowed) : undefined;
    const didYouMean = suggestion === undefined ? '' : ` Did you mean '${suggestion}'?`;
    ctx.report(
      'STRATOS_MANIFEST_FIELD_UNKNOWN',
      `${where}${didYouMean} Allowed fields are ${allowed.join(', ')}; remove or rename it.`,
      entry,
      {at: 'key'},
    );
  }
}

/** Reports each required key that is absent, located at the owner (its key, or the start of the mapping). */
export function checkRequiredKeys(
  ctx: ValidationContext,
  owner: ManifestEntry,
  entries: readonly ManifestEntry[],
  required: readonly {name: string; hint: string}[],
): void {
  for (const {name, hint} of required) {
    if (entries.some((entry) => entry.key === name)) continue;
    const where =
      owner.path.length === 0
        ? `workflow.yaml is missing the required field '${name}'`
        : `${fieldLabel(owner)} is missing the required field '${name}'`;
    ctx.report('STRATOS_MANIFEST_FIELD_MISSING', `${where} (${hint}). Add it.`, owner, {
      at: 'key',
      path: [...owner.path, name],
    });
  }
}

/** The allowed name an author most likely meant: same letters ignoring case, or at most two edits away. */
export function closestName(name: string, allowed: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = allowed.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = name.length < 5 ? 2 : 3;
  for (const candidate of allowed) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
