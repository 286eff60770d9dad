/**
 * Expected against actual values, as readable lines, one per difference at its path:
 * `output.subject: expected "Add a helper", got "Unexpected"`. `partial` (a case's `match`) checks only the keys
 * the expected objects list; arrays are always compared element by element and must have the same length.
 */
import {isDeepStrictEqual} from 'node:util';

export function diffValues(expected: unknown, actual: unknown, path: string, partial: boolean): string[] {
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const lines: string[] = [];
    for (const [key, value] of Object.entries(expected)) {
      const at = `${path}.${key}`;
      // Own keys only: `constructor` or `__proto__` in a case is a field, never something inherited.
      if (!Object.hasOwn(actual, key)) lines.push(`${at}: expected ${show(value)}, but it is missing`);
      else lines.push(...diffValues(value, actual[key], at, partial));
    }
    if (!partial) {
      for (const [key, value] of Object.entries(actual)) {
        if (!Object.hasOwn(expected, key)) lines.push(`${path}.${key}: not expected, got ${show(value)}`);
      }
    }
    return lines;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const lines: string[] = [];
    const length = Math.max(expected.length, actual.length);
    for (let index = 0; index < length; index++) {
      const at = `${path}[${index}]`;
      if (index >= actual.length) lines.push(`${at}: expected ${show(expected[index])}, but it is missing`);
      else if (index >= expected.length) lines.push(`${at}: not expected, got ${show(actual[index])}`);
      else lines.push(...diffValues(expected[index], actual[index], at, partial));
    }
    return lines;
  }
  return isDeepStrictEqual(expected, actual)
    ? []
    : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
