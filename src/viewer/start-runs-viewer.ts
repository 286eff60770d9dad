/**
 * The local runs page: an HTTP server on 127.0.0.1 that serves the page's shipped assets and the run records of
 * its scope as JSON, behind a random token generated for this launch. It reads run.json and events.jsonl and
 * writes nothing.
 */
import {randomBytes} from 'node:crypto';
import {createServer, type Server} from 'node:http';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {handleRequest} from './handle-request.ts';
import {loadPageAssets} from './page-assets.ts';
import {RunsCatalog} from './runs-catalog.ts';

export interface RunsViewerOptions {
  home: string;
  /** The invocation directory: its runs are shown unless `all`. */
  cwd: string;
  all: boolean;
  /** A run shown even when it belongs to another directory. */
  includeRunId?: string;
  /** 0 or absent: a free port. */
  port?: number;
}

export interface RunsViewer {
  /** `http://127.0.0.1:<port>/<token>/`: the page, with its token. */
  readonly url: string;
  readonly port: number;
  /** Requests answered so far (refused ones included). */
  readonly requests: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** @throws StratosError STRATOS_VIEWER_PORT_UNAVAILABLE when the port cannot be bound. */
export async function startRunsViewer(options: RunsViewerOptions): Promise<RunsViewer> {
  const assets = await loadPageAssets();
  const catalog = new RunsCatalog({
    home: options.home,
    ...(options.all ? {} : {workspacePath: options.cwd}),
    ...(options.includeRunId === undefined ? {} : {includeRunId: options.includeRunId}),
  });
  const token = randomBytes(16).toString('hex');
  let requests = 0;
  let port = 0;
  const server = createServer((request, response) => {
    requests++;
    const context = {token, port, assets, catalog, scope: {all: options.all, directory: options.cwd}};
    handleRequest(request, response, context).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(500, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      response.end(`The runs could not be read: ${describeError(error)}\n`);
    });
  });
  port = await listen(server, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'it is in use' : error.message;
      reject(
        new StratosError(
          'STRATOS_VIEWER_PORT_UNAVAILABLE',
          `The runs page could not listen on 127.0.0.1:${port}: ${reason}. Pass another --port, or leave it out to use a free port.`,
          {cause: error, details: {port}},
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
