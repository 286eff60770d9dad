/**
 * The `agents` and `decisions` sections: maps of name to a configuration mapping. Only that shape is checked
 * here; the agents and decision modules validate the fields inside, using the same locator for their locations.
 */
import {checkDecisionField} from './decision-fields.ts';
import {fieldLabel, readMapEntries, requireMapping} from './map-entries.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

/** Validates a map of named configurations and returns it as plain data when every entry is a mapping. */
export function validateNamedConfigs(
  ctx: ValidationContext,
  entry: ManifestEntry,
  kind: 'agent' | 'decision',
): Record<string, Record<string, unknown>> | undefined {
  const map = requireMapping(ctx, entry, `of ${kind} name to its settings`);
  if (map === undefined) return undefined;
  const configs: [string, Record<string, unknown>][] = [];
  let valid = true;
  for (const child of readMapEntries(ctx, entry, map)) {
    const config = requireMapping(ctx, child, `of ${kind} settings`);
    if (config === undefined) {
      valid = false;
      continue;
    }
    if (kind === 'decision' && !validateDecisionFields(ctx, child, config)) valid = false;
    const value = toPlainObject(ctx, child, kind);
    if (value === undefined) valid = false;
    else configs.push([child.key, value]);
  }
  return valid ? Object.fromEntries(configs) : undefined;
}

/** Checks each field of one decision configuration with the check decision() applies to code and overrides. */
function validateDecisionFields(
  ctx: ValidationContext,
  entry: ManifestEntry,
  config: NonNullable<ReturnType<typeof requireMapping>>,
): boolean {
  let valid = true;
  for (const field of readMapEntries(ctx, entry, config)) {
    let value: unknown;
    try {
      value = ctx.toJS(field.value);
    } catch {
      continue; // reported once for the whole configuration by toPlainObject
    }
    const problem = checkDecisionField(field.key, value);
    if (problem === undefined) continue;
    valid = false;
    const unknownField = problem.problem.startsWith('is not a decision setting');
    ctx.report(problem.code, `${fieldLabel(field)} ${problem.problem}`, field, {
      at: unknownField ? 'key' : 'value',
    });
  }
  return valid;
}

function toPlainObject(
  ctx: ValidationContext,
  entry: ManifestEntry,
  kind: 'agent' | 'decision',
): Record<string, unknown> | undefined {
  try {
    const value: unknown = ctx.toJS(entry.value);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch (error) {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(entry)} could not be read as ${kind} settings: ${(error as Error).message}. ` +
        'Write the settings out instead of nesting aliases.',
      entry,
    );
    return undefined;
  }
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} must be a mapping of ${kind} settings; got ${describeValue(entry.value)}.`,
    entry,
  );
  return undefined;
}
