/**
 * The first part of `value` that is not JSON data (what survives a JSON round trip unchanged), described for a
 * message as `<path> is ...`; undefined when it all is. `skipUndefinedProperties`: an object property whose value
 * is undefined is dropped, as JSON.stringify drops it, instead of being refused.
 */
export function findNonJsonValue(
  value: unknown,
  path: string,
  options: {skipUndefinedProperties: boolean},
  seen = new Set<object>(),
): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  if (typeof value !== 'object')
    return `${path} is ${value === undefined ? 'undefined' : `a ${typeof value}`}`;
  if (seen.has(value)) return `${path} refers back to itself`;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNonJsonValue(value[i], `${path}[${i}]`, options, seen);
      if (found !== undefined) return found;
    }
  } else {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      return `${path} is a ${value.constructor?.name ?? 'class instance'}`;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined && options.skipUndefinedProperties) continue;
      const found = findNonJsonValue(item, `${path}.${key}`, options, seen);
      if (found !== undefined) return found;
    }
  }
  seen.delete(value);
  return;
}
