/** The stable, collision-free identifiers derived from an MCP tool name. */

const keptCharacter = /^[A-Za-z0-9_]$/;

/**
 * Escapes a name into identifier characters: ASCII letters, digits and `_` stay, every other Unicode code point
 * becomes `$<uppercase hex>$` with no zero padding. `$` itself becomes `$24$`, so a literal `$` in a name can never
 * look like an escape and two different names never escape to the same text.
 *
 * @example
 * escapeToolName('agentstack.execute'); // 'agentstack$2E$execute'
 * escapeToolName('🚀launch'); // '$1F680$launch'
 */
export function escapeToolName(name: string): string {
  let escaped = '';
  // for...of walks code points, so an astral character becomes one escape rather than two surrogate halves.
  for (const character of name) {
    escaped += keptCharacter.test(character)
      ? character
      : `$${character.codePointAt(0)!.toString(16).toUpperCase()}$`;
  }
  return escaped;
}

/** The exported type names of one tool in a generated wrapper. */
export interface ToolTypeNames {
  /** `Tool_<escaped>Input`, the type of the method arguments. */
  input: string;
  /** `Tool_<escaped>Output`, the type of `structuredContent` (exported only when an output schema is declared). */
  output: string;
  /** `Tool_<escaped>Schema`, the namespace that isolates the tool's schema declarations. */
  schema: string;
}

/**
 * The type names a wrapper exports for a tool. They depend only on the exact tool name, never on discovery
 * order or on the other tools of the server.
 *
 * @example
 * toolTypeNames('get-me').input; // 'Tool_get$2D$meInput'
 */
export function toolTypeNames(toolName: string): ToolTypeNames {
  const base = `Tool_${escapeToolName(toolName)}`;
  return {input: `${base}Input`, output: `${base}Output`, schema: `${base}Schema`};
}
