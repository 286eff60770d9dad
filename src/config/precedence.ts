/**
 * Field-by-field precedence (design philosophy, "Make configuration predictable"): for each field the
 * highest-priority layer that defines it wins; lists replace lower-priority lists; the fields named in
 * `mergeByKey` are maps (template variables) merged key by key, where a higher layer's value replaces the lower
 * one's even when that value is an object. A layer never erases a field it does not mention.
 */

export type SettingsLayer = Readonly<Record<string, unknown>> | undefined;

export interface MergeOptions {
  /** Fields whose values are maps merged by key (for example `variables`). */
  mergeByKey?: readonly string[];
  /**
   * Fields with their own merge rule (for example a prompt reference `{template, variables}`, where a layer
   * that only changes `variables` keeps the lower layer's template): `(higher, lower) => merged`.
   */
  mergeWith?: Readonly<Record<string, (higher: unknown, lower: unknown) => unknown>>;
}

/**
 * Merges settings layers, highest priority first. `undefined` values count as "not set".
 * @example
 * mergeLayers([{model: 'b'}, {model: 'a', effort: 'low'}]) // {model: 'b', effort: 'low'}
 */
export function mergeLayers(
  layers: readonly SettingsLayer[],
  options: MergeOptions = {},
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  // Walk lowest priority first so each higher layer overwrites field by field.
  for (const layer of [...layers].reverse()) {
    if (layer === undefined) continue;
    for (const [field, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const below = merged[field];
      if (options.mergeByKey?.includes(field) && isPlainObject(value) && isPlainObject(below)) {
        merged[field] = {...below, ...definedEntries(value)};
      } else if (options.mergeWith?.[field] !== undefined && below !== undefined) {
        merged[field] = options.mergeWith[field](value, below);
      } else {
        merged[field] = value;
      }
    }
  }
  return merged;
}

function definedEntries(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
