// Every ending of a browser sign-in closes the loopback listener: an error callback, a wrong state, a browser that
// cannot start, the time limit and cancellation. In process, against the real OAuth test servers.
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {request} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {AuthenticationError} from '../../../src/errors/index.ts';
import {authenticateMcpServer} from '../../../src/mcp/auth/authenticate.ts';
import {findClosedPort} from '../../helpers/closed-port.ts';
import {fakeCallbackCommand, type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';

let oauth: OAuthTestServers;
let home: string;
before(async () => {
  oauth = await startOAuthServers();
  home = await mkdtemp(join(tmpdir(), 'stratos-sign-in-'));
});
after(async () => {
  await oauth.close();
  await rm(home, {recursive: true, force: true});
});

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({host: '127.0.0.1', port, path: '/mcp/oauth/callback'}, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function signInEndsWith(
  code: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<AuthenticationError> {
  const port = await findClosedPort();
  let caught: unknown;
  try {
    await authenticateMcpServer({
      server: 'stratum',
      workflow: 'test',
      serverUrl: oauth.mcpUrl,
      config: {type: 'oauth', callbackPort: port},
      directory: home,
      env: {...process.env, STRATOS_HOME: home, ...env},
      signal,
    });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof AuthenticationError, `expected an AuthenticationError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.equal(await isListening(port), false, 'the callback listener is closed');
  return caught;
}

test('an error parameter on the callback', async () => {
  const error = await signInEndsWith('STRATOS_AUTH_CALLBACK_ERROR', {BROWSER: fakeCallbackCommand('error')});
  assert.match(error.message, /'access_denied': Denied by the test/);
});

test('a wrong state', async () => {
  await signInEndsWith('STRATOS_AUTH_STATE_MISMATCH', {BROWSER: fakeCallbackCommand('wrong-state')});
});

test('a browser that cannot be started', async () => {
  const error = await signInEndsWith('STRATOS_AUTH_BROWSER_FAILED', {
    BROWSER: '/nonexistent/browser-command',
  });
  assert.match(error.message, /could not be started/);
});

const idleBrowser = `"${process.execPath}" -e "setTimeout(() => {}, 4000)"`;

test('the time limit', async () => {
  await signInEndsWith('STRATOS_AUTH_TIMEOUT', {
    BROWSER: idleBrowser,
    STRATOS_OAUTH_SIGN_IN_TIMEOUT_MS: '400',
  });
});

test('cancellation (the invocation or a parent ending)', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('parent cleanup')), 400);
  await signInEndsWith('STRATOS_AUTH_CANCELLED', {BROWSER: idleBrowser}, controller.signal);
});

test('configuration mistakes are reported before anything is sent', async () => {
  await assert.rejects(
    authenticateMcpServer({
      server: 'stratum',
      workflow: 'test',
      serverUrl: oauth.mcpUrl,
      config: {type: 'oauth', clientSecret: 'x'},
      directory: home,
      env: {STRATOS_HOME: home},
    }),
    {code: 'STRATOS_AUTH_CONFIG_INVALID'},
  );
  await assert.rejects(
    authenticateMcpServer({
      server: 'stratum',
      workflow: 'test',
      serverUrl: oauth.mcpUrl,
      config: {type: 'oauth', redirectUri: 'https://example.com/callback'},
      directory: home,
      env: {STRATOS_HOME: home},
    }),
    {code: 'STRATOS_AUTH_CONFIG_INVALID'},
  );
});
