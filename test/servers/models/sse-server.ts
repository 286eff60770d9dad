/**
 * The shared part of the scripted model servers: an HTTP server on 127.0.0.1 that records every request body and
 * hands model requests to a route handler, plus SSE writing with optional pauses (to cancel mid-stream).
 *
 * `GET /__test/open-streams` answers `{streams: [<request body as JSON text>, ...]}` for the model responses still
 * being written: a test workflow waits there for its request to be in flight before it cancels (no timers).
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies of every shape
  body: any;
  receivedAt: number;
  /** Position of this request's arrival and of its response's end in one order of server events: two requests
   * were in flight at once when each arrived before the other ended (no clock involved). */
  arrivedStep: number;
  endedStep?: number;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` (no path). */
  url: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Model requests only (the ones the script answered). */
  modelRequests(): RecordedRequest[];
  /** Streams that were still open when the client went away (cancellation evidence). */
  abortedStreams: number;
  close(): Promise<void>;
}

export type RouteHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  isModelRequest: (value: boolean) => void,
) => Promise<void> | void;

export async function listenModelServer(route: RouteHandler): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const model = new Set<RecordedRequest>();
  const open = new Set<RecordedRequest>();
  const state = {abortedStreams: 0, step: 0};
  const server = createServer((incoming, response) => {
    void handle(incoming, response);
  });
  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {}
    const request: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers: incoming.headers,
      body,
      receivedAt: Date.now(),
      arrivedStep: 0,
    };
    if (request.method === 'GET' && request.path === '/__test/open-streams') {
      const streams = [...open].map((r) => JSON.stringify(r.body ?? null));
      response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({streams}));
      return;
    }
    request.arrivedStep = ++state.step;
    requests.push(request);
    response.on('close', () => {
      request.endedStep = ++state.step;
      open.delete(request);
      if (!response.writableEnded) state.abortedStreams += 1;
    });
    try {
      await route(request, response, (value) => {
        if (!value) return;
        model.add(request);
        if (!response.writableEnded && !response.destroyed) open.add(request);
      });
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, {'content-type': 'application/json'});
      if (!response.writableEnded) response.end(JSON.stringify({error: {message: String(error)}}));
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    modelRequests: () => requests.filter((request) => model.has(request)),
    get abortedStreams() {
      return state.abortedStreams;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes SSE events; `pauseMs` waits before an event; a pause of Infinity holds the stream until the client leaves. */
export async function writeSse(
  response: ServerResponse,
  events: readonly {
    event?: string;
    data: unknown;
    pauseMs?: number /** Write data as is (`[DONE]`). */;
    raw?: boolean;
  }[],
): Promise<void> {
  if (!response.headersSent) {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
  }
  for (const item of events) {
    if (item.pauseMs !== undefined) {
      const closed = await pause(response, item.pauseMs);
      if (closed) return;
    }
    if (response.destroyed) return;
    response.write(
      `${item.event === undefined ? '' : `event: ${item.event}\n`}data: ${item.raw === true ? String(item.data) : JSON.stringify(item.data)}\n\n`,
    );
  }
  response.end();
}

function pause(response: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (response.destroyed) return resolve(true);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
          response.off('close', onClose);
          resolve(false);
        }, ms)
      : undefined;
    response.once('close', onClose);
  });
}
