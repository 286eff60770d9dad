/**
 * A token-protected HTTP listener on 127.0.0.1 inside the Stratos process, for what a harness process calls back
 * into (the MCP hook bridge, Codex's PreToolUse hook command). It listens on a free port and answers 401 to every
 * request without `Authorization: Bearer <token>`; the token is random and reaches only the harness process it is
 * meant for (never a command line, never a log).
 */
import {randomBytes, timingSafeEqual} from 'node:crypto';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export interface LoopbackListener {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The bearer token every request must carry. Secret: never log it. */
  readonly token: string;
  /** Ends every connection and the listener. Idempotent. */
  close(): Promise<void>;
}

/** Handles an authorized request; a rejection answers 500 (or ends a response already under way). */
export type LoopbackHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Starts the listener and resolves once it listens. */
export async function startLoopbackListener(handle: LoopbackHandler): Promise<LoopbackListener> {
  const token = randomBytes(32).toString('base64url');
  const server = createServer((request, response) => {
    if (!isAuthorized(request.headers.authorization, token)) {
      response.writeHead(401, {'www-authenticate': 'Bearer'}).end('Unauthorized');
      return;
    }
    handle(request, response).catch(() => {
      if (!response.headersSent)
        response.writeHead(500, {'content-type': 'text/plain'}).end('Internal error');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const {port} = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    origin: `http://127.0.0.1:${port}`,
    token,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function isAuthorized(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
