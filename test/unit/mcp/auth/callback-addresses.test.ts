// The callback listener binds what the configured redirect names: a browser that resolves `localhost` to either
// loopback family, or is sent to [::1], reaches it. Real listeners on port 0, plain fetches over 127.0.0.1 and ::1.
import assert from 'node:assert/strict';
import {createServer} from 'node:net';
import {test} from 'node:test';
import {startLoopbackCallback} from '../../../../src/mcp/auth/loopback-callback.ts';
import {resolveOAuthSettings} from '../../../../src/mcp/auth/oauth-settings.ts';
import {findFreePort} from '../../../helpers/closed-port.ts';

const ipv6 = await new Promise<boolean>((resolve) => {
  const server = createServer();
  server.once('error', () => resolve(false));
  server.listen(0, '::1', () => server.close(() => resolve(true)));
});
const needsIpv6 = {skip: ipv6 ? false : 'this machine has no IPv6 loopback address (::1)'};

const settingsFor = (redirectUri: string | undefined) =>
  resolveOAuthSettings(
    {type: 'oauth', ...(redirectUri === undefined ? {} : {redirectUri})},
    {server: 'stratum', workflow: 'w', directory: '/'},
  );

/** The status of a GET to the listener's address over one family; 404 means it is listening there. */
async function reach(host: string, port: number): Promise<number | string> {
  try {
    const response = await fetch(`http://${host}:${port}/not-the-callback`);
    await response.body?.cancel();
    return response.status;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? 'failed';
  }
}

async function listenLike(
  redirectUri: string | undefined,
): Promise<{hosts: readonly string[]; v4: unknown; v6: unknown}> {
  const settings = await settingsFor(redirectUri);
  const callback = await startLoopbackCallback({
    port: settings.callbackPort,
    hosts: settings.callbackHosts,
    state: 's',
    server: 'stratum',
  });
  try {
    return {
      hosts: callback.hosts,
      v4: await reach('127.0.0.1', callback.port),
      v6: ipv6 ? await reach('[::1]', callback.port) : 'no ipv6',
    };
  } finally {
    await callback.close();
  }
}

test('no redirectUri: the listener is on 127.0.0.1 only', async () => {
  const {hosts, v4, v6} = await listenLike(undefined);
  assert.deepEqual(hosts, ['127.0.0.1']);
  assert.equal(v4, 404);
  if (ipv6) assert.notEqual(v6, 404);
});

test('a [::1] redirect: the listener is on ::1', needsIpv6, async () => {
  const port = await findFreePort(['::1']);
  const {hosts, v6} = await listenLike(`http://[::1]:${port}/cb`);
  assert.deepEqual(hosts, ['::1']);
  assert.equal(v6, 404);
});

test('a localhost redirect: the listener is on both loopback families, one port', needsIpv6, async () => {
  const port = await findFreePort(['127.0.0.1', '::1']);
  const {hosts, v4, v6} = await listenLike(`http://localhost:${port}/cb`);
  assert.deepEqual(hosts, ['127.0.0.1', '::1']);
  assert.equal(v4, 404);
  assert.equal(v6, 404);
});
