/**
 * Structured output on an ACP agent. The protocol has no structured output: the prompt asks for a JSON value that
 * matches the schema, and the reply is read strictly. The whole reply must be one JSON value (or one fenced JSON
 * block and nothing else); anything else is no structured result (STRATOS_AGENT_OUTPUT_MISSING), and the value is
 * then validated against the Zod schema like every harness's (STRATOS_AGENT_OUTPUT_INVALID). No prose is turned
 * into an object and no field is filled in.
 */

/** The prompt of a turn with an output schema: the user's prompt, then the request for JSON. */
export function withOutputRequest(prompt: string, schema: Record<string, unknown> | undefined): string {
  if (schema === undefined) return prompt;
  return `${prompt}\n\nReply with only one JSON value that matches this JSON Schema, with no other text:\n${JSON.stringify(schema)}`;
}

/** The JSON value of a reply, or undefined when the reply is not exactly one JSON value. */
export function readStructuredReply(text: string): {value: unknown} | undefined {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(trimmed);
  const body = fenced === null ? trimmed : fenced[1]!.trim();
  if (body === '') return undefined;
  try {
    return {value: JSON.parse(body) as unknown};
  } catch {
    return undefined;
  }
}
