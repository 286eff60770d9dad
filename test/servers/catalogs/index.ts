// A scripted provider model catalog on 127.0.0.1: Anthropic-style `GET /v1/models` (paged) and OpenAI-style
// `GET /v1/models`, in the shapes selection reads, plus broken answers. `mode` picks the behaviour per server.
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';

export type CatalogMode =
  | {kind: 'complete'; models: string[]}
  | {kind: 'paged'; pages: string[][]}
  | {kind: 'partial'; models: string[]}
  | {kind: 'invalid'}
  | {kind: 'denied'}
  | {kind: 'error'};

export interface CatalogServer {
  url: string;
  requests: {path: string; headers: Record<string, string | string[] | undefined>}[];
  close(): Promise<void>;
}

export async function startCatalogServer(mode: CatalogMode): Promise<CatalogServer> {
  const requests: CatalogServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({path: req.url ?? '', headers: req.headers});
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {'content-type': 'application/json'});
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (!url.pathname.endsWith('/models')) return send(404, {error: 'not found'});
    switch (mode.kind) {
      case 'complete':
        return send(200, {data: mode.models.map((id) => ({id, type: 'model'})), has_more: false});
      case 'paged': {
        const after = url.searchParams.get('after_id');
        const index = after === null ? 0 : Number(after.replace('page-', '')) + 1;
        const page = mode.pages[index] ?? [];
        const more = index < mode.pages.length - 1;
        return send(200, {data: page.map((id) => ({id})), has_more: more, last_id: `page-${index}`});
      }
      case 'partial':
        // Says there is more but gives no cursor to page on: the listing is partial.
        return send(200, {data: mode.models.map((id) => ({id})), has_more: true, last_id: null});
      case 'invalid':
        return send(200, '{"models": "not a list"');
      case 'denied':
        return send(401, {error: {type: 'authentication_error', message: 'invalid x-api-key'}});
      case 'error':
        return send(500, {error: 'boom'});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
