/** Whether a value survives a JSON round trip unchanged (what the journal keeps). */

/** The first part of `value` that is not JSON data, described for a message; undefined when it all is. */
export function findNonJsonValue(value: unknown, path: string, seen = new Set<object>()): string | undefined {
  if (value === undefined && seen.size === 0) return;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  if (typeof value !== 'object')
    return `${path} is ${value === undefined ? 'undefined' : `a ${typeof value}`}`;
  if (seen.has(value)) return `${path} refers back to itself`;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNonJsonValue(value[i], `${path}[${i}]`, seen);
      if (found !== undefined) return found;
    }
  } else {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      return `${path} is a ${value.constructor?.name ?? 'class instance'}`;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const found = findNonJsonValue(item, `${path}.${key}`, seen);
      if (found !== undefined) return found;
    }
  }
  seen.delete(value);
  return;
}
