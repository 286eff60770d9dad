// Type tests for the MCP entry: checked by `tsc --noEmit` over test/, never run. A connection has no public early
// disposal: the invocation that opened it closes it, so `close()` must not compile.
import {connectMcpServer} from '../../src/mcp.ts';

export async function typeChecks(): Promise<void> {
  const connection = await connectMcpServer({server: 'github', tools: []});
  await connection.callTool('get_me', {});
  // @ts-expect-error the invocation owns the connection's disposal: there is no close()
  await connection.close();
}
