// The byte limit of Streamable HTTP answers: a JSON response as a whole, an event stream per event.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  limitOf,
  limitResponseSize,
  MAX_MCP_MESSAGE_BYTES,
  McpMessageTooLargeError,
} from '../../../../src/mcp/client/message-limits.ts';

const mib = 1024 * 1024;

/** A fetch that answers every request with `chunks` under `contentType`. */
function answering(contentType: string, chunks: string[]): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      {headers: {'content-type': contentType}},
    );
}

test('an event stream may carry more than the limit in events that are each under it', async () => {
  const event = `data: ${'x'.repeat(6 * mib)}\n\n`;
  let limited = false;
  const fetchFn = limitResponseSize(
    answering('text/event-stream', [event, event.slice(0, 10), event.slice(10)]),
    () => {
      limited = true;
    },
  );
  const text = await (await fetchFn('http://127.0.0.1/mcp')).text();
  assert.equal(text.length, 2 * event.length);
  assert.equal(limited, false);
});

test('one event or one JSON answer over the limit stops the body with the limit error', async () => {
  for (const [type, body] of [
    ['text/event-stream', `data: ${'x'.repeat(MAX_MCP_MESSAGE_BYTES)}\n\n`],
    ['application/json', `"${'x'.repeat(6 * mib)}`],
  ] as const) {
    const chunks = type === 'application/json' ? [body, body] : [body];
    let limited: unknown;
    const fetchFn = limitResponseSize(answering(type, chunks), (error) => {
      limited = error;
    });
    const response = await fetchFn('http://127.0.0.1/mcp');
    await assert.rejects(response.text());
    assert.ok(limited instanceof McpMessageTooLargeError, type);
    assert.equal(limitOf(limited), 'size');
  }
});

test('the limit behind an SDK error: the stdio read buffer, or a stack overflow while parsing', () => {
  assert.equal(limitOf(new Error('ReadBuffer exceeded maximum size of 10485760 bytes')), 'size');
  assert.equal(
    limitOf(new Error('wrapped', {cause: new RangeError('Maximum call stack size exceeded')})),
    'depth',
  );
  assert.equal(limitOf(new Error('Connection closed')), undefined);
});
