// First-use authorization-server binding of a supplied client id and secret, end to end. The secret is a canary
// read through {env:}: it must reach the token endpoint and never any output, log or run artifact.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../../servers/oauth/authorization-server.ts';
import {browserCommand, type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';
import {
  assertNoSecretsLeaked,
  createOAuthProject,
  type OAuthProject,
  storedSecrets,
} from '../../servers/oauth/project.ts';

const canary = 'canary-client-secret-7f3a9c2e51d84b06';
const client = {
  client_id: 'stratos-confidential',
  client_secret: canary,
  application_type: 'native',
  redirect_uris: ['http://127.0.0.1:1/mcp/oauth/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
};

let oauth: OAuthTestServers;
let other: TestAuthorizationServer;
let project: OAuthProject;
let issuer: string;

before(async () => {
  oauth = await startOAuthServers({clients: [client]});
  other = await startAuthorizationServer({resource: () => oauth.mcpUrl, clients: [client]});
  issuer = oauth.issuer;
  project = await createOAuthProject(oauth.mcpUrl, {
    authYaml: ['clientId: stratos-confidential', 'clientSecret: "{env:STRATUM_CLIENT_SECRET}"'],
  });
});
after(async () => {
  await assertNoSecretsLeaked(project, [canary, ...(await storedSecrets(project).catch(() => []))]);
  await project.remove();
  await other.close();
  await oauth.close();
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({STRATUM_CLIENT_SECRET: canary, ...extra});

test('the binding is saved before the browser opens and kept after a failed sign-in', async () => {
  const failed = await project.run(['mcp', 'login', '--name', 'stratum', '--json'], env({BROWSER: 'false'}));
  assert.equal(failed.json.error.code, 'STRATOS_AUTH_BROWSER_FAILED');
  const {records} = await project.readCredentials();
  assert.deepEqual(records, [
    {serverUrl: oauth.mcpUrl, authorizationServer: issuer, clientId: 'stratos-confidential'},
  ]);
});

test('sign-in with the supplied client authenticates with its secret and reuses the binding', async () => {
  const registrations = oauth.as.registrations;
  const login = await project.run(
    ['mcp', 'login', '--name', 'stratum', '--json'],
    env({BROWSER: browserCommand()}),
  );
  assert.equal(login.exitCode, 0, login.stderr);
  assert.equal(login.json.data.clientId, 'stratos-confidential');
  assert.equal(oauth.as.registrations, registrations, 'a supplied client is never registered');
  const {records} = await project.readCredentials();
  assert.equal(records.length, 1);
  assert.equal(records[0]!.clientSecret, canary, 'the secret stays in the store');
  assert.equal(typeof records[0]!.refreshToken, 'string');
});

test('a different authorization server later is refused before any token or secret is sent', async () => {
  const stored = await project.readCredentials();
  oauth.useAuthorizationServer(other);
  try {
    await project.setExpiry(60);
    const run = await project.run(
      ['run', 'uses-stratum', '--input', '{"text":"x"}', '--json'],
      env({BROWSER: 'false'}),
    );
    assert.equal(run.exitCode, 1);
    assert.equal(run.json.error.code, 'STRATOS_AUTH_SERVER_MISMATCH');
    assert.match(run.json.error.message, /stratos mcp logout --name stratum/);
    assert.deepEqual(other.tokenRequests, {}, 'nothing was sent to the other authorization server');
    const after = await project.readCredentials();
    assert.equal(after.records.length, 1);
    assert.equal(
      after.records[0]!.refreshToken,
      stored.records[0]!.refreshToken,
      'existing credentials are kept',
    );

    // An intentional change: logout, then login binds the new server.
    const logout = await project.run(['mcp', 'logout', '--name', 'stratum', '--json'], env());
    assert.equal(logout.json.data.removed.length, 1);
    const login = await project.run(
      ['mcp', 'login', '--name', 'stratum', '--json'],
      env({BROWSER: browserCommand()}),
    );
    assert.equal(login.exitCode, 0, login.stderr);
    assert.equal(login.json.data.authorizationServer, other.issuer);
  } finally {
    oauth.useAuthorizationServer(undefined);
  }
});

test('two concurrent first uses signing in to the same server keep one record with its tokens', async () => {
  const fresh = await createOAuthProject(oauth.mcpUrl, {
    authYaml: ['clientId: stratos-confidential', 'clientSecret: "{env:STRATUM_CLIENT_SECRET}"'],
  });
  try {
    const runs = await Promise.all(
      ['alice', 'bob'].map((user) =>
        fresh.run(
          ['run', 'uses-stratum', '--input', '{"text":"hi"}', '--json'],
          env({BROWSER: browserCommand({user})}),
        ),
      ),
    );
    for (const run of runs) assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    const {records} = await fresh.readCredentials();
    assert.equal(records.length, 1, 'one credential record for the URL, server and client');
    assert.equal(records[0]!.authorizationServer, issuer);
    assert.equal(records[0]!.clientId, 'stratos-confidential');
    assert.equal(typeof records[0]!.accessToken, 'string', 'no sign-in was lost to the other');
    assert.equal(typeof records[0]!.refreshToken, 'string');
    assert.equal(records[0]!.clientSecret, canary);
    await assertNoSecretsLeaked(fresh, [canary, ...(await storedSecrets(fresh))]);
  } finally {
    await fresh.remove();
  }
});
