/**
 * The MCP server the hook bridge serves for one real server: `tools/list` answers with the real server's tools
 * (names and schemas unchanged), `tools/call` forwards through the hooks (`bridge-tool-call.ts`). A structured
 * result is projected onto the tool's advertised output schema, as the SDK's own servers do.
 */
import type {McpHttpHandler} from '@modelcontextprotocol/server';
import type {BridgeToolCalls} from './bridge-tool-call.ts';
import type {McpUpstream} from './mcp-upstream-pool.ts';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** A Streamable HTTP handler (a fresh server instance per request) standing in for `upstream`. */
export function createBridgeMcpHandler(
  sdk: ServerSdk,
  upstream: McpUpstream,
  calls: BridgeToolCalls,
): McpHttpHandler {
  return sdk.createMcpHandler(() => {
    const server = new sdk.Server(
      {name: `stratos-hook-bridge/${upstream.name}`, version: '1'},
      {capabilities: {tools: {}}},
    );
    server.setRequestHandler('tools/list', async () => ({tools: await upstream.listTools()}));
    server.setRequestHandler('tools/call', async (request, context) => {
      const tool = request.params.name;
      const result = await calls.call(upstream, tool, request.params.arguments ?? {}, context.mcpReq.signal);
      const advertised = upstream.advertised(tool)?.outputSchema as Record<string, unknown> | undefined;
      return result.structuredContent === undefined
        ? result
        : server.projectCallToolResult(result, advertised);
    });
    return server;
  });
}
