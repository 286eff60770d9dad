import assert from 'node:assert/strict';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {test} from 'node:test';
import {
  type FetchHandler,
  readRequestPath,
  serveNodeRequest,
} from '../../../src/internal/serve-node-request.ts';

async function withServer(handle: FetchHandler, run: (origin: string) => Promise<void>): Promise<void> {
  const server = createServer((req, res) => {
    serveNodeRequest(req, res, handle).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('the handler gets the method, path, headers and JSON body; its status, headers and body come back', async () => {
  let seen: {method: string; path: string; header: string | null; body: unknown} | undefined;
  await withServer(
    async (request, parsedBody) => {
      seen = {
        method: request.method,
        path: readRequestPath(request),
        header: request.headers.get('x-test'),
        body: parsedBody,
      };
      const headers = new Headers({'content-type': 'text/plain'});
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('created', {status: 201, headers});
    },
    async (origin) => {
      const response = await fetch(`${origin}/mcp/a%20b?x=1`, {
        method: 'POST',
        headers: {'x-test': 'yes', 'content-type': 'application/json'},
        body: JSON.stringify({n: 1}),
      });
      assert.equal(response.status, 201);
      assert.equal(await response.text(), 'created');
      assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    },
  );
  assert.deepEqual(seen, {method: 'POST', path: '/mcp/a%20b', header: 'yes', body: {n: 1}});
});

test('a body that is not JSON is no parsed body; a streamed response arrives whole', async () => {
  let parsed: unknown = 'unset';
  await withServer(
    async (request, parsedBody) => {
      parsed = parsedBody;
      assert.equal(await request.text(), 'not json');
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('one '));
          controller.enqueue(new TextEncoder().encode('two'));
          controller.close();
        },
      });
      return new Response(stream);
    },
    async (origin) => {
      const response = await fetch(origin, {method: 'POST', body: 'not json'});
      assert.equal(await response.text(), 'one two');
    },
  );
  assert.equal(parsed, undefined);
});
