/** The discovery snapshot of MCP tools that wrapper generation reads and the runtime validates against. */

/**
 * A JSON Schema as an MCP server declares it (draft 2020-12 or draft-07). Kept as a loose record: the code
 * generator reads what it understands and treats everything else as `unknown`.
 */
export type JsonSchemaObject = {readonly [keyword: string]: unknown};

/**
 * One tool as `tools/list` returned it. The wrapper generator derives the types from this snapshot and embeds
 * the same snapshot in the wrapper, so the runtime validates `structuredContent` against exactly the schema the
 * types came from.
 *
 * @example
 * const tool: McpToolSnapshot = {name: 'get_me', inputSchema: {type: 'object'}};
 */
export interface McpToolSnapshot {
  /** The tool name, dispatched to the server unchanged. */
  name: string;
  /** A human-readable display name. */
  title?: string;
  /** What the tool does, shown as JSDoc on the generated method. */
  description?: string;
  /** The JSON Schema of the tool arguments. */
  inputSchema: JsonSchemaObject;
  /** The JSON Schema of `structuredContent`, when the tool declares one. */
  outputSchema?: JsonSchemaObject;
}

/** A schema position: JSON Schema allows `true` (anything) and `false` (nothing) besides objects. */
export type JsonSchema = JsonSchemaObject | boolean;

/** True for a value that can hold schema keywords (a plain JSON object). */
export function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A schema as an object: `true` and non-schemas become `{}` (anything), `false` becomes `{not: {}}` (nothing).
 * The wrapper embeds object schemas only, matching the {@link McpToolSnapshot} type.
 */
export function toSchemaObject(schema: unknown): JsonSchemaObject {
  if (schema === false) return {not: {}};
  return isSchemaObject(schema) ? schema : {};
}
