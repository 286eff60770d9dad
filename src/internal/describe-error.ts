/**
 * The message of a thrown value, for a sentence that says why something failed: an `Error`'s `message`, anything
 * else (a string, a number, an object thrown by foreign code) as `String(value)`.
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
