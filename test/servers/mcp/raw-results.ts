/**
 * A small hand-written MCP server (2025-11-25, no SDK) whose results are written as raw JSON text, so it can send
 * what the SDK's own server refuses to serialize: `huge_out` answers with one text block of 11 MiB (over the
 * client's 10 MiB stdio message limit), `deep_out` with structured content nested 5,000 levels deep, and
 * `small_out` with `{ok: true}`.
 *
 *   node test/servers/mcp/raw-results.ts --stdio        (newline-delimited JSON-RPC on stdin/stdout)
 *   startRawResultsHttpServer()                         (Streamable HTTP on 127.0.0.1, JSON responses)
 */
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {createInterface} from 'node:readline';

const protocolVersion = '2025-11-25';
const emptyInput = {type: 'object', properties: {}};
const tools = [
  {name: 'huge_out', description: 'Returns 11 MiB of text.', inputSchema: emptyInput},
  {name: 'deep_out', description: 'Returns structured content 5,000 levels deep.', inputSchema: emptyInput},
  {name: 'small_out', description: 'Returns {ok: true}.', inputSchema: emptyInput},
];

/** The JSON text of the result of one call (built as text: JSON.stringify is not asked to nest 5,000 levels). */
function resultText(tool: unknown): string {
  if (tool === 'huge_out') return `{"content":[{"type":"text","text":"${'x'.repeat(11 * 1024 * 1024)}"}]}`;
  if (tool === 'deep_out') {
    const depth = 5000;
    const deep = `${'{"inner":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    return `{"content":[{"type":"text","text":"deep"}],"structuredContent":${deep}}`;
  }
  return '{"content":[{"type":"text","text":"{\\"ok\\":true}"}],"structuredContent":{"ok":true}}';
}

/** The JSON-RPC answer to one message, or undefined for a notification. */
export function answer(message: {
  id?: unknown;
  method?: unknown;
  params?: {name?: unknown};
}): string | undefined {
  if (message.id === undefined) return undefined;
  const id = JSON.stringify(message.id);
  const result = (text: string) => `{"jsonrpc":"2.0","id":${id},"result":${text}}`;
  switch (message.method) {
    case 'initialize':
      return result(
        JSON.stringify({
          protocolVersion,
          capabilities: {tools: {}},
          serverInfo: {name: 'raw-results', version: '1.0.0'},
        }),
      );
    case 'tools/list':
      return result(JSON.stringify({tools}));
    case 'tools/call':
      return result(resultText(message.params?.name));
    case 'ping':
      return result('{}');
    default:
      return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`;
  }
}

/** Serves on stdin/stdout until stdin closes. */
export function serveRawResultsOverStdio(): void {
  const lines = createInterface({input: process.stdin});
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const reply = answer(JSON.parse(line));
    if (reply !== undefined) process.stdout.write(`${reply}\n`);
  });
  lines.on('close', () => process.exit(0));
}

export interface RawResultsHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  close(): Promise<void>;
}

/** Serves Streamable HTTP (stateless, JSON responses) on 127.0.0.1, port 0. */
export async function startRawResultsHttpServer(): Promise<RawResultsHttpServer> {
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (reply === undefined) response.writeHead(202).end();
      else response.writeHead(200, {'content-type': 'application/json'}).end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv.includes('--stdio')) serveRawResultsOverStdio();
