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
import {createServer} from 'node:http';
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
import {readRequestPath, serveNodeRequest} from '../../../src/internal/serve-node-request.ts';
import type {ServerHost} from './server.ts';
import type {LegacyHttpStyle} from './types.ts';

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

function jsonRpcError(status: number, code: number, message: string, id: unknown = null): Response {
  return Response.json({jsonrpc: '2.0', id, error: {code, message}}, {status});
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
    if (readRequestPath(request) !== '/mcp') return new Response('Not found', {status: 404});
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
    serveNodeRequest(req, res, route).catch((error: unknown) => {
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
