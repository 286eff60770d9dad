/**
 * An MCP resource server that behaves like Stratum's /mcp (example-mcp-server-stratum.txt): an OAuth 2.1
 * protected resource whose 401 carries `WWW-Authenticate: Bearer resource_metadata="…", scope="mcp:read mcp:write"`,
 * protected-resource metadata naming the authorization server, stateless 2025-era Streamable HTTP (no session,
 * GET /mcp is 405, versions 2025-06-18, 2025-03-26, 2024-11-05), and the credential checked on every request.
 * Tokens are verified against the in-process authorization server (user tokens and client-credentials tokens,
 * whose subject is the client id). Every bearer token seen is recorded.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {legacyStatelessFallback, type McpServerFactory, Server} from '@modelcontextprotocol/server';
import type Provider from 'oidc-provider';
import {mcpScopes} from './authorization-server.ts';

export interface TestResourceServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  metadataUrl: string;
  /** Accepted requests by bearer token (the tokens themselves, for assertions). */
  acceptedTokens: string[];
  rejected: number;
  close(): Promise<void>;
}

const protocolVersions = ['2025-06-18', '2025-03-26', '2024-11-05'];

export async function startResourceServer(options: {
  issuer: () => string;
  provider: () => Provider;
}): Promise<TestResourceServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${origin}/mcp`;
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const acceptedTokens: string[] = [];
  let rejected = 0;

  const factory: McpServerFactory = (ctx) => {
    const subject = (ctx as {authInfo?: {extra?: {subject?: string}}}).authInfo?.extra?.subject;
    const mcp = new Server(
      {name: 'stratum-test', version: '1.0.0'},
      {capabilities: {tools: {}}, supportedProtocolVersions: protocolVersions},
    );
    mcp.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: 'stratum_whoami',
          description: 'Identify the authenticated user.',
          inputSchema: {type: 'object', properties: {}},
        },
      ],
    }));
    mcp.setRequestHandler('tools/call', (request) => {
      if (request.params.name !== 'stratum_whoami') {
        return {
          content: [{type: 'text', text: `Stratum API error: unknown tool ${request.params.name}`}],
          isError: true,
        };
      }
      return {
        content: [{type: 'text', text: `user:${subject ?? 'unknown'}`}],
        structuredContent: {user: subject},
      };
    });
    return mcp;
  };
  const mcpHandler = legacyStatelessFallback(factory);

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, {'content-type': 'text/plain'});
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', origin).pathname;
    if (
      path === '/.well-known/oauth-protected-resource/mcp' ||
      path === '/.well-known/oauth-protected-resource'
    ) {
      res.writeHead(200, {'content-type': 'application/json'});
      res.end(
        JSON.stringify({
          resource: url,
          authorization_servers: [options.issuer()],
          scopes_supported: mcpScopes,
          bearer_methods_supported: ['header'],
        }),
      );
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const subject = await verify(req.headers.authorization);
    if (subject === undefined) {
      rejected += 1;
      const invalid = req.headers.authorization === undefined ? '' : ', error="invalid_token"';
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer resource_metadata="${metadataUrl}", scope="${mcpScopes.join(' ')}"${invalid}`,
      });
      res.end(JSON.stringify({error: 'unauthorized'}));
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(405, {allow: 'POST'}).end();
      return;
    }
    const body = await readBody(req);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(`${origin}${req.url ?? '/mcp'}`, {
      method: req.method ?? 'POST',
      headers,
      body,
    });
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(body);
    } catch {
      parsedBody = undefined;
    }
    const response = await mcpHandler(request, {
      parsedBody,
      authInfo: {token: 'redacted', clientId: 'test', scopes: mcpScopes, extra: {subject}},
    } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function verify(header: string | undefined): Promise<string | undefined> {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (token === undefined) return undefined;
    const provider = options.provider();
    const user = await provider.AccessToken.find(token);
    const machine = user === undefined ? await provider.ClientCredentials.find(token) : undefined;
    const found = user ?? machine;
    if (found === undefined || found.isExpired) return undefined;
    const audience = (found as {aud?: string | string[]}).aud;
    const audiences = Array.isArray(audience) ? audience : [audience];
    if (!audiences.includes(url)) return undefined;
    acceptedTokens.push(token);
    return user?.accountId ?? `client:${machine!.clientId}`;
  }

  return {
    url,
    metadataUrl,
    acceptedTokens,
    get rejected() {
      return rejected;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
