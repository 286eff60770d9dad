/** MCP wrapper generation: a tool discovery snapshot in, the source of generated/mcp/<server>.ts out. */

export {type GenerateWrapperOptions, generateWrapperSource, wrapperRuntimeModule} from './emit-wrapper.ts';
export {escapeToolName, type ToolTypeNames, toolTypeNames} from './escape-tool-name.ts';
export {convertSchemaDeclarations, type SchemaDeclarationsOptions} from './schema-declarations.ts';
export {assertServerName, type ServerTypeNames, serverTypeNames, wrapperFileName} from './server-names.ts';
export type {JsonSchema, JsonSchemaObject, McpToolSnapshot} from './tool-snapshot.ts';
