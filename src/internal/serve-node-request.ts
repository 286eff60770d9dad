/**
 * node:http to a web-standard handler and back: the request (headers, body, a signal that aborts when the client
 * disconnects) becomes a `Request`, the handler's `Response` (streamed bodies included) is written back. The MCP
 * SDK's Streamable HTTP handlers speak `Request`/`Response`; Stratos's listeners are plain `node:http` on 127.0.0.1.
 */
import type {IncomingMessage, ServerResponse} from 'node:http';

/** A web-standard handler; `parsedBody` is the request body as JSON, undefined when empty or not JSON. */
export type FetchHandler = (request: Request, parsedBody: unknown) => Promise<Response>;

/**
 * Serves one node:http request with `handle`. Aborting the request's signal (the client went away before the
 * response finished) is how a Streamable HTTP client cancels an in-flight request.
 * @throws whatever `handle` throws, before anything was written (the caller answers 500)
 */
export async function serveNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handle: FetchHandler,
): Promise<void> {
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
  const response = await handle(request, parseJson(body));
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    const existing = out[key];
    out[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  });
  res.writeHead(response.status, out);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.on('close', cancel);
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done || res.destroyed) break;
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
    res.off('close', cancel);
  }
}

/** The path of a request's URL, without the query. */
export function readRequestPath(request: Request): string {
  return new URL(request.url).pathname;
}

function parseJson(body: Buffer | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
