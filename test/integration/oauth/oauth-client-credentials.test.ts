// The client-credentials grant in process, against the real OAuth test servers (oidc-provider with the grant):
// concurrent fetches coordinate, the agent-request path re-fetches an expiring token, a changed authorization
// server is refused before the secret is sent, and a failed token request stores nothing.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {AuthenticationError} from '../../../src/errors/index.ts';
import type {OAuthConfig} from '../../../src/manifest/index.ts';
import {resolveMcpAuthProvider} from '../../../src/mcp/auth/auth-provider.ts';
import {authenticateMcpServer} from '../../../src/mcp/auth/authenticate.ts';
import {clearDiscoveryCache} from '../../../src/mcp/auth/discovery.ts';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../../servers/oauth/authorization-server.ts';
import {type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';

const secret = 'integration-secret-4b8d2e';
const clients = [
  {
    client_id: 'ci',
    client_secret: secret,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  },
];
const config: OAuthConfig = {
  type: 'oauth',
  grant: 'client_credentials',
  clientId: 'ci',
  clientSecret: '{env:CI_SECRET}',
};

let oauth: OAuthTestServers;
let other: TestAuthorizationServer;
const homes: string[] = [];

before(async () => {
  oauth = await startOAuthServers({clients, clientCredentials: true});
  other = await startAuthorizationServer({resource: () => oauth.rs.url, clients, clientCredentials: true});
});
after(async () => {
  await Promise.all([oauth.close(), other.close()]);
  for (const home of homes) await rm(home, {recursive: true, force: true});
});

async function newHome(): Promise<{home: string; env: NodeJS.ProcessEnv}> {
  const home = await mkdtemp(join(tmpdir(), 'stratos-cc-'));
  homes.push(home);
  return {home, env: {...process.env, STRATOS_HOME: home, BROWSER: 'false', CI_SECRET: secret}};
}

function authenticate(env: NodeJS.ProcessEnv, home: string, overrides: Partial<OAuthConfig> = {}) {
  return authenticateMcpServer({
    server: 'stratum',
    workflow: 'test',
    serverUrl: oauth.mcpUrl,
    config: {...config, ...overrides},
    directory: home,
    env,
  });
}

const fetches = () => oauth.as.tokenRequests.client_credentials ?? 0;

async function rejects(promise: Promise<unknown>, code: string): Promise<AuthenticationError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AuthenticationError, String(error));
    assert.equal(error.code, code, error.message);
    assert.ok(!error.message.includes(secret));
    return error;
  }
  assert.fail(`expected ${code}`);
}

test('concurrent first uses fetch one token and share it', async () => {
  const {home, env} = await newHome();
  const start = fetches();
  const results = await Promise.all([
    authenticate(env, home),
    authenticate(env, home),
    authenticate(env, home),
  ]);
  assert.equal(fetches(), start + 1);
  assert.deepEqual(results.map((result) => result.source).sort(), [
    'fetched',
    'fetched-elsewhere',
    'fetched-elsewhere',
  ]);
  assert.equal(new Set(results.map((result) => result.accessToken)).size, 1);
});

test('the auth provider of agent requests and direct connections re-fetches an expiring token', async () => {
  const {home, env} = await newHome();
  const provider = resolveMcpAuthProvider(
    {type: 'http', url: oauth.mcpUrl, auth: config},
    {server: 'stratum', workflow: 'test', directory: home, env},
  )!;
  const start = fetches();
  const first = await provider.headers();
  assert.match(first.Authorization!, /^Bearer .+/);
  assert.deepEqual(await provider.headers(), first, 'a fresh token is reused');
  assert.equal(fetches(), start + 1);
  const file = join(home, 'credentials.json');
  const data = JSON.parse(await readFile(file, 'utf8'));
  data.records[0].expiresAt = Math.floor(Date.now() / 1000) + 200;
  await writeFile(file, JSON.stringify(data), {mode: 0o600});
  const renewed = await provider.headers();
  assert.notDeepEqual(renewed, first);
  assert.equal(fetches(), start + 2);
  assert.equal(oauth.as.tokenRequests.refresh_token, undefined);
});

test('another authorization server for the same MCP URL and client id is refused before the secret is sent', async () => {
  const {home, env} = await newHome();
  await authenticate(env, home);
  const stored = await readFile(join(home, 'credentials.json'), 'utf8');
  oauth.useAuthorizationServer(other);
  clearDiscoveryCache(oauth.mcpUrl);
  try {
    const error = await rejects(authenticate(env, home, {}), 'STRATOS_AUTH_SERVER_MISMATCH');
    assert.match(error.message, /stratos mcp logout --name stratum/);
    assert.equal(other.tokenRequests.client_credentials, undefined, 'nothing reached the other server');
    assert.equal(await readFile(join(home, 'credentials.json'), 'utf8'), stored, 'stored credentials kept');
  } finally {
    oauth.useAuthorizationServer(undefined);
    clearDiscoveryCache(oauth.mcpUrl);
  }
});

test('a token response lost on the way stores nothing, and the next attempt succeeds', async () => {
  const {home, env} = await newHome();
  oauth.as.settings.afterTokenRequest = (_grant, _ok, connection) => connection.drop();
  try {
    const dropped = await rejects(authenticate(env, home), 'STRATOS_AUTH_TOKEN_REQUEST_FAILED');
    assert.match(dropped.message, /Nothing was stored; try again when the authorization server is reachable/);
  } finally {
    oauth.as.settings.afterTokenRequest = undefined;
  }
  assert.ok(!existsSync(join(home, 'credentials.json')));
  const recovered = await authenticate(env, home);
  assert.equal(recovered.source, 'fetched');
});
