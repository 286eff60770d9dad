/**
 * The entry generated MCP wrappers import: `import {connectMcpServer} from '@stratoscli/stratos/mcp'`.
 * Named re-exports only. The MCP SDK itself is loaded when a connection opens, not when this entry loads.
 */
export {McpToolError, type McpToolErrorResult} from './errors/index.ts';
export {
  type ConnectMcpServerOptions,
  connectMcpServer,
  type McpContentBlock,
  type McpServerConnection,
  type McpToolResult,
} from './mcp/client/index.ts';
export type {JsonSchemaObject, McpToolSnapshot} from './mcp/codegen/index.ts';
