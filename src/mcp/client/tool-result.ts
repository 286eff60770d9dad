/** The MCP tool result envelope as workflow code sees it (`tools/call` result). */

/** Annotations and `_meta` any content block may carry. */
interface McpContentBase {
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** One content block of a tool result. */
export type McpContentBlock =
  | (McpContentBase & {type: 'text'; text: string})
  | (McpContentBase & {type: 'image'; data: string; mimeType: string})
  | (McpContentBase & {type: 'audio'; data: string; mimeType: string})
  | (McpContentBase & {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
    })
  | (McpContentBase & {
      type: 'resource';
      resource: {uri: string; mimeType?: string; text?: string; blob?: string};
    });

/**
 * The result of an MCP tool call. Generated methods of tools with an output schema return
 * `McpToolResult & {structuredContent: Tool_<name>Output}`, validated against the schema snapshot; without one,
 * `structuredContent` stays optional and unknown.
 *
 * @example
 * const result: McpToolResult = await server.get_me({});
 * for (const block of result.content) if (block.type === 'text') console.log(block.text);
 */
export interface McpToolResult {
  content: McpContentBlock[];
  structuredContent?: unknown;
  /** Never true on a returned result: such results throw McpToolError. */
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
