/**
 * Field paths in the one notation that contract diagnostics and validation issues share:
 * `options.items[2].id`. Keys that are not plain identifiers are quoted (`labels["a.b"]`), so a path
 * reads unambiguously even for unusual field names.
 */

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends an object key to a path: `options` + `id` gives `options.id`; `''` + `id` gives `id`. */
export function appendKey(path: string, key: string): string {
  if (!identifier.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Appends an array position: a number for a concrete value (`items[2]`), or `[]` for "any element" in a schema. */
export function appendIndex(path: string, index?: number): string {
  return index === undefined ? `${path}[]` : `${path}[${index}]`;
}

/** Appends "any value of a record" (`labels.*`): records have no fixed keys to name. */
export function appendAnyKey(path: string): string {
  return path === '' ? '*' : `${path}.*`;
}

/** Formats a Zod issue path (keys and array indexes) in the shared notation; the root is `''`. */
export function formatIssuePath(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path = appendIndex(path, segment);
    else path = appendKey(path, typeof segment === 'symbol' ? String(segment) : segment);
  }
  return path;
}

/** Prefixes a path with the side of the contract it belongs to: `input` + `repo` gives `input.repo`. */
export function sidePath(side: 'input' | 'output', path: string): string {
  if (path === '') return side;
  return path.startsWith('[') ? `${side}${path}` : `${side}.${path}`;
}
