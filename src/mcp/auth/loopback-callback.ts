/**
 * The loopback redirect target of a browser sign-in: an HTTP listener on the loopback addresses the redirect
 * names (127.0.0.1 by default; a free port unless one is configured) that accepts exactly one callback on its path. The callback's state must be the one this sign-in
 * issued; an `error` parameter or a wrong state ends the sign-in with an AuthenticationError. The listener is
 * closed by {@link LoopbackCallback.close} in every outcome.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {AuthenticationError} from '../../errors/index.ts';

export const defaultCallbackPath = '/mcp/oauth/callback';

export interface LoopbackCallbackOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * Loopback addresses to listen on, all on one port (default `127.0.0.1`). An address this machine does not have
   * (no IPv6 `::1`) is skipped while another one is bound.
   */
  hosts?: readonly string[];
  path?: string;
  /** The state parameter the callback must carry. */
  state: string;
  /** The `mcp.servers` key, for messages and the browser page. */
  server: string;
}

export interface CallbackResult {
  code: string;
  /** RFC 9207 `iss` parameter, when the authorization server sent one. */
  iss: string | undefined;
}

export interface LoopbackCallback {
  /** `http://<first bound address>:<port><path>`, such as `http://127.0.0.1:49152/mcp/oauth/callback`. */
  readonly redirectUrl: string;
  /** The addresses the listener is bound to. */
  readonly hosts: readonly string[];
  readonly port: number;
  /** Settles once with the first callback on the path. */
  readonly result: Promise<CallbackResult>;
  close(): Promise<void>;
}

/**
 * Starts the listener.
 *
 * @throws AuthenticationError `STRATOS_AUTH_CALLBACK_PORT_UNAVAILABLE` when the port cannot be bound.
 */
export async function startLoopbackCallback(options: LoopbackCallbackOptions): Promise<LoopbackCallback> {
  const path = options.path ?? defaultCallbackPath;
  let settle: {resolve: (value: CallbackResult) => void; reject: (error: Error) => void} | undefined;
  const result = new Promise<CallbackResult>((resolve, reject) => {
    settle = {resolve, reject};
  });
  // The caller races this promise with timeouts and cancellation; an unobserved rejection must not crash.
  result.catch(() => {});
  let done = false;
  const finish = (outcome: {ok: CallbackResult} | {error: Error}) => {
    if (done) return;
    done = true;
    if ('ok' in outcome) settle!.resolve(outcome.ok);
    else settle!.reject(outcome.error);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path || req.method !== 'GET') {
      res.writeHead(404, {'content-type': 'text/plain; charset=utf-8'}).end('Not found');
      return;
    }
    const page = (status: number, title: string, text: string) => {
      res.writeHead(status, {'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store'});
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
          `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
      );
    };
    if (done) {
      page(409, 'Sign-in already finished', 'This sign-in has already ended. You can close this tab.');
      return;
    }
    const params = url.searchParams;
    const error = params.get('error');
    if (params.get('state') !== options.state) {
      page(
        400,
        'Sign-in failed',
        'The sign-in response does not belong to this sign-in. Return to Stratos and try again.',
      );
      finish({
        error: new AuthenticationError(
          'STRATOS_AUTH_STATE_MISMATCH',
          `The OAuth callback for MCP server '${options.server}' carried a state that this sign-in did not issue, so it was rejected. Start the sign-in again.`,
          {server: options.server},
        ),
      });
      return;
    }
    if (error !== null) {
      const description = params.get('error_description');
      page(
        400,
        'Sign-in failed',
        `The authorization server reported: ${error}. Return to Stratos for details.`,
      );
      finish({
        error: new AuthenticationError(
          'STRATOS_AUTH_CALLBACK_ERROR',
          `The authorization server of MCP server '${options.server}' ended the sign-in with '${clip(error)}'${description === null ? '' : `: ${clip(description)}`}.`,
          {server: options.server, details: {oauthError: clip(error)}},
        ),
      });
      return;
    }
    const code = params.get('code');
    if (code === null || code === '') {
      page(400, 'Sign-in failed', 'The sign-in response has no authorization code.');
      finish({
        error: new AuthenticationError(
          'STRATOS_AUTH_CALLBACK_ERROR',
          `The OAuth callback for MCP server '${options.server}' has neither a code nor an error parameter.`,
          {server: options.server},
        ),
      });
      return;
    }
    page(
      200,
      'Signed in',
      `Stratos is signed in to the MCP server '${options.server}'. You can close this tab.`,
    );
    finish({ok: {code, iss: params.get('iss') ?? undefined}});
  };

  const {servers, port} = await listenOnAll(options, handle);
  const hosts = servers.map((bound) => bound.host);
  let closed: Promise<void> | undefined;
  return {
    redirectUrl: `http://${urlHost(hosts[0]!)}:${port}${path}`,
    hosts,
    port,
    result,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        finish({
          error: new AuthenticationError(
            'STRATOS_AUTH_CANCELLED',
            `The sign-in to MCP server '${options.server}' ended before its callback arrived.`,
            {server: options.server},
          ),
        });
        void Promise.all(servers.map(({server}) => closeServer(server))).then(() => resolve());
      });
      return closed;
    },
  };
}

interface BoundServer {
  host: string;
  server: Server;
}

/** Errors of an address this machine does not have (IPv6 disabled): skipped while another address is bound. */
const missingAddressCodes = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * One listener per address, all on the same port: the first picks it when none is configured.
 *
 * @throws AuthenticationError `STRATOS_AUTH_CALLBACK_PORT_UNAVAILABLE` when an address cannot be bound (the port
 *   is taken) or none can.
 */
async function listenOnAll(
  options: LoopbackCallbackOptions,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{servers: BoundServer[]; port: number}> {
  const servers: BoundServer[] = [];
  let port = options.port ?? 0;
  let skipped: NodeJS.ErrnoException | undefined;
  for (const host of options.hosts ?? ['127.0.0.1']) {
    const server = createServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (missingAddressCodes.has(code)) {
        skipped = error as NodeJS.ErrnoException;
        continue;
      }
      await Promise.all(servers.map((bound) => closeServer(bound.server)));
      throw portUnavailable(options, `${urlHost(host)}:${port}`, error);
    }
    port = (server.address() as AddressInfo).port;
    servers.push({host, server});
  }
  if (servers.length === 0) {
    const hosts = (options.hosts ?? ['127.0.0.1']).map(urlHost).join(' or ');
    throw portUnavailable(options, `${hosts}:${port}`, skipped);
  }
  return {servers, port};
}

function portUnavailable(
  options: LoopbackCallbackOptions,
  address: string,
  error: unknown,
): AuthenticationError {
  return new AuthenticationError(
    'STRATOS_AUTH_CALLBACK_PORT_UNAVAILABLE',
    `The OAuth callback listener for MCP server '${options.server}' could not listen on ${address} (${(error as NodeJS.ErrnoException | undefined)?.code ?? 'error'}). Free the port or change callbackPort/redirectUri.`,
    {server: options.server, cause: error},
  );
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Let the browser receive the result page, then drop whatever connection is still open.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 500).unref();
  });
}

/** An address as a URL host: IPv6 in brackets. */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function clip(text: string): string {
  const single = text.replace(/[\r\n\t]+/g, ' ');
  return single.length > 300 ? `${single.slice(0, 300)}...` : single;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
