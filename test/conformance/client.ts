/**
 * The MCP conformance client command: `node test/conformance/client.ts <server-url>`, with the scenario in
 * MCP_CONFORMANCE_SCENARIO (how `@modelcontextprotocol/conformance client --command` runs a client). It connects
 * with Stratos's own connection code (McpClientSession: automatic version negotiation, the request limit,
 * release on failure) and does what each non-OAuth client scenario asks.
 */
import {McpClientSession} from '../../src/mcp/client/index.ts';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
if (url === undefined) {
  console.error('usage: node test/conformance/client.ts <server-url>');
  process.exit(2);
}

/** Accepts every form with no fields filled in: the SDK applies the schema defaults (SEP-1034). */
const acceptWithDefaults = async () => ({action: 'accept', content: {}});

const session = new McpClientSession({
  server: 'conformance',
  spec: {kind: 'http', url, headers: {}},
  timeoutMs: 20_000,
  identity: url,
  ...(scenario.startsWith('elicitation') ? {elicitation: acceptWithDefaults} : {}),
});
try {
  await session.open();
  const {tools} = await session.client.listTools();
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await session.client.callTool({name, arguments: args}, {timeout: 20_000});
    console.log(JSON.stringify({tool: name, result}));
  };
  if (scenario === 'tools_call') await call('add_numbers', {a: 5, b: 3});
  else if (scenario === 'sse-retry') await call('test_reconnection', {});
  else if (scenario.startsWith('elicitation')) await call('test_client_elicitation_defaults', {});
  else if (scenario !== 'initialize')
    console.log(`no actions for scenario ${scenario}; tools: ${tools.length}`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await session.close();
}
