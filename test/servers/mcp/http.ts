/**
 * Streamable HTTP serving for the test servers on 127.0.0.1 (plain `node:http`, bridged to the SDK's
 * web-standard handlers).
 *
 * - `modern`: `createMcpHandler(factory, {legacy: 'reject'})` — stateless 2026-07-28 serving (a fresh
 *   instance per request, no session, no initialize); 2025-era requests get the unsupported-version error.
 * - `legacy`: only a 2025-era Streamable HTTP endpoint. Default style `session`: `initialize` creates an
 *   `Mcp-Session-Id` session (one `WebStandardStreamableHTTPServerTransport` + instance per session);
 *   style `stateless`: the SDK's `legacyStatelessFallback`. The instances list no 2026-07-28 revision, so a
 *   `server/discover` probe is not understood and the client must fall back to initialize.
 * - `both`: requests are routed with `isLegacyRequest` — modern traffic to the strict modern handler,
 *   2025-era traffic to the legacy endpoint above.
 */
import {randomUUID} from 'node:crypto';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {LegacyHttpHandler} from '@modelcontextprotocol/server';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  localhostAllowedHostnames,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type {ServerHost} from './server.ts';
import type {LegacyHttpStyle} from './types.ts';

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

function jsonRpcError(status: number, code: number, message: string, id: unknown = null): Response {
  return Response.json({jsonrpc: '2.0', id, error: {code, message}}, {status});
}

function parseJson(body: Buffer | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

interface LegacyEndpoint {
  handle: LegacyHttpHandler;
  close(): Promise<void>;
}

/** A sessionful 2025-era Streamable HTTP endpoint (the classic `sessionIdGenerator` wiring). */
function sessionLegacyEndpoint(host: ServerHost, onerror: (error: Error) => void): LegacyEndpoint {
  const sessions = new Map<
    string,
    {transport: WebStandardStreamableHTTPServerTransport; close(): Promise<void>}
  >();

  const handle: LegacyHttpHandler = async (request, options) => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (session === undefined) return jsonRpcError(404, -32001, 'Session not found');
      return session.transport.handleRequest(request, options);
    }
    const body = options?.parsedBody;
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(
        400,
        -32000,
        'Bad Request: No valid session ID provided',
        (body as {id?: unknown})?.id,
      );
    }
    const server = await host.factory({era: 'legacy', requestInfo: request});
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, {transport, close: () => server.close()});
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onerror = onerror;
    await server.connect(transport);
    return transport.handleRequest(request, options);
  };

  return {
    handle,
    close: async () => {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((session) => session.close()));
    },
  };
}

export interface ListenOptions {
  port?: number;
  legacyHttp?: LegacyHttpStyle;
  onerror?: (error: Error) => void;
}

/** Starts an HTTP server for `host` on 127.0.0.1 and resolves once it is listening. */
export async function listenHttp(host: ServerHost, options: ListenOptions = {}): Promise<HttpEndpoint> {
  const onerror = options.onerror ?? (() => {});
  const modern =
    host.mode === 'legacy' ? undefined : createMcpHandler(host.factory, {legacy: 'reject', onerror});
  let legacy: LegacyEndpoint | undefined;
  if (host.mode !== 'modern') {
    legacy =
      options.legacyHttp === 'stateless'
        ? {handle: legacyStatelessFallback(host.factory, onerror), close: async () => {}}
        : sessionLegacyEndpoint(host, onerror);
  }

  const route = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const rejected = hostHeaderValidationResponse(request, localhostAllowedHostnames());
    if (rejected) return rejected;
    const requestOptions = parsedBody === undefined ? {} : {parsedBody};
    if (modern && legacy) {
      const isLegacy = await isLegacyRequest(request, parsedBody);
      return isLegacy ? legacy.handle(request, requestOptions) : modern.fetch(request, requestOptions);
    }
    if (modern) return modern.fetch(request, requestOptions);
    return legacy!.handle(request, requestOptions);
  };

  const httpServer = createServer((req, res) => {
    handleNodeRequest(req, res, route).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) {
        res.writeHead(500, {'content-type': 'application/json'});
        res.end(JSON.stringify({jsonrpc: '2.0', id: null, error: {code: -32603, message: 'Internal error'}}));
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const {port} = httpServer.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => {
      closed ??= (async () => {
        await Promise.allSettled([modern?.close(), legacy?.close()]);
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })();
      return closed;
    },
  };
}

async function handleNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  route: (request: Request, parsedBody: unknown) => Promise<Response>,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/mcp') {
    res.writeHead(404, {'content-type': 'text/plain'}).end('Not found');
    return;
  }
  // Aborting this signal (client disconnected before the response finished) is how a 2026-07-28 client
  // cancels an in-flight request over Streamable HTTP.
  const disconnected = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) disconnected.abort(new Error('client disconnected'));
  });

  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    ...(body === undefined ? {} : {body: new Uint8Array(body)}),
    signal: disconnected.signal,
  });

  const response = await route(request, parseJson(body));
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    const existing = outHeaders[key];
    if (existing === undefined) outHeaders[key] = value;
    else outHeaders[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  });
  res.writeHead(response.status, outHeaders);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancelReader = (): void => {
    reader.cancel().catch(() => {});
  };
  res.on('close', cancelReader);
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', cancelReader);
  }
}
