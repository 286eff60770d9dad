/**
 * The message of a thrown value, for a sentence that says why something failed: an `Error`'s `message`, anything
 * else (a string, a number, an object thrown by foreign code) as `String(value)`. The text of a cause in an error's
 * chain, which may be an MCP tool result, is `describeCauseText` (`errors/cause-text.ts`).
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
