/**
 * The limits a value must keep to be stored and printed as JSON: at most MAX_VALUE_DEPTH levels of nesting, no
 * cycles, no BigInt, function or symbol values, and `toJSON` methods that return instead of throwing. The value is
 * converted to its JSON form once, without recursion, so a hostile value fails with an issue that names its path
 * instead of overflowing the stack or throwing later, in JSON.stringify, after a run was recorded as succeeded.
 * Workflow input and output (before schema validation), test case files and MCP tool results are all held to it;
 * `maxDepth` is for a document that holds such values a few levels down (a test case file).
 */
import {describeError} from './describe-error.ts';

/** Objects and arrays nested deeper than this are rejected in workflow input and output (and MCP tool results). */
export const MAX_VALUE_DEPTH = 100;

/** Where a value breaks the limits (`path` dotted, `''` for the value itself) and why, as a sentence. */
export interface JsonValueProblem {
  path: string;
  message: string;
}

/** The value as JSON.stringify would write it (plain objects, arrays and primitives), or why it cannot be. */
export type JsonValueResult = {ok: true; value: unknown} | {ok: false; issue: JsonValueProblem};

interface Pending {
  value: unknown;
  /** The key JSON.stringify passes to `toJSON`: the property name, the array index, `''` at the root. */
  key: string;
  depth: number;
  path: string;
  /** Stores the converted value where it belongs (`undefined` leaves an object's key out, as JSON does). */
  put: (value: unknown) => void;
}

/**
 * Converts `value` to its JSON form: `toJSON` applied, boxed primitives unwrapped, `undefined` properties left
 * out and `undefined` array items (and non-finite numbers) written as `null`, as JSON.stringify does. A BigInt,
 * function or symbol anywhere, a throwing `toJSON` or getter, a cycle or too deep a nesting is an issue at its path.
 */
export function toJsonValue(value: unknown, maxDepth = MAX_VALUE_DEPTH): JsonValueResult {
  let result: unknown;
  const stack: Pending[] = [{value, key: '', depth: 0, path: '', put: (converted) => (result = converted)}];
  const open = new Set<object>();
  const exits: {object: object; after: number}[] = [];
  while (stack.length > 0) {
    // Objects whose children are all converted leave the ancestor set, so a shared (not cyclic) value is fine.
    while (exits.length > 0 && (exits.at(-1)?.after ?? -1) >= stack.length) {
      open.delete((exits.pop() as {object: object}).object);
    }
    const item = stack.pop() as Pending;
    let problem: string | undefined;
    try {
      problem = convertOne(item, stack, open, exits, maxDepth);
    } catch (error) {
      problem = `Reading it as JSON threw: ${describeError(error)}. Return plain data.`;
    }
    if (problem !== undefined) return {ok: false, issue: {path: item.path, message: problem}};
  }
  return {ok: true, value: result};
}

/** The first reason `value` cannot be serialized as JSON within the limits, or `undefined` when it can. */
export function findJsonValueProblem(
  value: unknown,
  maxDepth = MAX_VALUE_DEPTH,
): JsonValueProblem | undefined {
  const converted = toJsonValue(value, maxDepth);
  return converted.ok ? undefined : converted.issue;
}

/** Converts one value, pushing its children; returns the problem with it, if any. */
function convertOne(
  item: Pending,
  stack: Pending[],
  open: Set<object>,
  exits: {object: object; after: number}[],
  maxDepth: number,
): string | undefined {
  let current = item.value;
  if (current !== null && typeof current === 'object' && typeof (current as Json).toJSON === 'function') {
    try {
      current = (current as {toJSON: (key: string) => unknown}).toJSON(item.key);
    } catch (error) {
      return `Its toJSON() method threw: ${describeError(error)}. Return plain data, or fix toJSON().`;
    }
  }
  if (current instanceof Number || current instanceof String || current instanceof Boolean) {
    current = current.valueOf();
  }
  switch (typeof current) {
    case 'bigint':
      return 'A BigInt cannot be written as JSON; return a number or a string.';
    case 'function':
      return 'A function cannot be written as JSON; return plain data (JSON would drop it silently).';
    case 'symbol':
      return 'A symbol cannot be written as JSON; return a string (JSON would drop it silently).';
    case 'number':
      item.put(Number.isFinite(current) ? current : null);
      return undefined;
    case 'object':
      break;
    default:
      item.put(current);
      return undefined;
  }
  if (current === null) {
    item.put(null);
    return undefined;
  }
  if (item.depth >= maxDepth) {
    return `The value is nested more than ${maxDepth} levels deep; flatten it (the limit keeps run records and the --json envelope writable).`;
  }
  if (open.has(current)) return 'The value contains a cycle and cannot be written as JSON.';
  open.add(current);
  exits.push({object: current, after: stack.length});
  if (Array.isArray(current)) {
    const copy: unknown[] = new Array(current.length).fill(null);
    item.put(copy);
    current.forEach((child, index) => {
      stack.push({
        value: child,
        key: String(index),
        depth: item.depth + 1,
        path: `${item.path}[${index}]`,
        put: (converted) => (copy[index] = converted === undefined ? null : converted),
      });
    });
    return undefined;
  }
  // Keys are placed in their order first: children are converted last to first.
  const copy: Json = {};
  item.put(copy);
  for (const [key, child] of Object.entries(current)) {
    define(copy, key, null);
    stack.push({
      value: child,
      key,
      depth: item.depth + 1,
      path: item.path === '' ? key : `${item.path}.${key}`,
      put: (converted) => {
        if (converted === undefined) delete copy[key];
        else define(copy, key, converted);
      },
    });
  }
  return undefined;
}

type Json = Record<string, unknown>;

/** An own property even for `__proto__`, as JSON.parse makes it. */
function define(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, {value, writable: true, enumerable: true, configurable: true});
}
