import assert from 'node:assert/strict';
import {test} from 'node:test';
import {startLoopbackListener} from '../../../../src/agents/harness-kit/loopback-listener.ts';

test('the listener answers only requests with its bearer token, on 127.0.0.1', async () => {
  const listener = await startLoopbackListener(async (request, response) => {
    response.writeHead(200).end(`ok ${request.method}`);
  });
  try {
    assert.match(listener.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const missing = await fetch(`${listener.origin}/x`, {method: 'POST'});
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer');
    const wrong = await fetch(`${listener.origin}/x`, {
      headers: {authorization: `Bearer ${listener.token}x`},
    });
    assert.equal(wrong.status, 401);
    const right = await fetch(`${listener.origin}/x`, {
      method: 'POST',
      headers: {authorization: `Bearer ${listener.token}`},
    });
    assert.equal(right.status, 200);
    assert.equal(await right.text(), 'ok POST');
  } finally {
    await listener.close();
    await listener.close();
  }
});

test('a failing handler answers 500', async () => {
  const listener = await startLoopbackListener(async () => {
    throw new Error('broken');
  });
  try {
    const response = await fetch(listener.origin, {headers: {authorization: `Bearer ${listener.token}`}});
    assert.equal(response.status, 500);
  } finally {
    await listener.close();
  }
});
