/**
 * The limits a value must keep to be stored and printed as JSON: at most MAX_VALUE_DEPTH levels of nesting, no
 * cycles and no BigInt. Checked without recursion, so a hostile value fails with an issue instead of overflowing
 * the stack later in JSON.stringify. Workflow input and output (before schema validation), test case files and MCP
 * tool results are all held to it.
 */

/** Where a value breaks the limits (`path` dotted, `''` for the value itself) and why, as a sentence. */
export interface JsonValueProblem {
  path: string;
  message: string;
}

/** Objects and arrays nested deeper than this are rejected in workflow input and output (and MCP tool results). */
export const MAX_VALUE_DEPTH = 100;

/**
 * The first reason `value` cannot be serialized as JSON within the limits, or `undefined` when it can. `maxDepth`
 * is for a document that holds such values a few levels down (a test case file): its values keep the same limit.
 */
export function findJsonValueProblem(
  value: unknown,
  maxDepth = MAX_VALUE_DEPTH,
): JsonValueProblem | undefined {
  const stack: {value: unknown; depth: number; path: string}[] = [{value, depth: 0, path: ''}];
  const open = new Set<object>();
  const exits: {object: object; after: number}[] = [];
  while (stack.length > 0) {
    // Objects whose children are all visited leave the ancestor set, so a shared (not cyclic) value is fine.
    while (exits.length > 0 && (exits.at(-1)?.after ?? -1) >= stack.length) {
      open.delete((exits.pop() as {object: object}).object);
    }
    const item = stack.pop() as {value: unknown; depth: number; path: string};
    if (typeof item.value === 'bigint') {
      return {path: item.path, message: 'A BigInt cannot be written as JSON; return a number or a string.'};
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (typeof (item.value as {toJSON?: unknown}).toJSON === 'function') continue;
    if (item.depth >= maxDepth) {
      return {
        path: item.path,
        message: `The value is nested more than ${maxDepth} levels deep; flatten it (the limit keeps run records and the --json envelope writable).`,
      };
    }
    if (open.has(item.value)) {
      return {path: item.path, message: 'The value contains a cycle and cannot be written as JSON.'};
    }
    open.add(item.value);
    exits.push({object: item.value, after: stack.length});
    const entries = Array.isArray(item.value)
      ? item.value.map((child, index) => [`${item.path}[${index}]`, child] as const)
      : Object.entries(item.value).map(
          ([key, child]) => [item.path === '' ? key : `${item.path}.${key}`, child] as const,
        );
    for (const [path, child] of entries) stack.push({value: child, depth: item.depth + 1, path});
  }
  return undefined;
}
