// Browser sign-in end to end: the real CLI, a real authorization server (oidc-provider), a Stratum-like MCP
// resource server, and real headless Chromium (through BROWSER) signing in through login and consent.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {
  browserCommand,
  fakeCallbackCommand,
  type OAuthTestServers,
  startOAuthServers,
} from '../../servers/oauth/index.ts';
import {
  assertNoSecretsLeaked,
  createOAuthProject,
  type OAuthProject,
  storedSecrets,
} from '../../servers/oauth/project.ts';

let oauth: OAuthTestServers;
const projects: OAuthProject[] = [];
const leaked: string[] = [];

before(async () => {
  oauth = await startOAuthServers();
});
after(async () => {
  for (const project of projects) {
    await assertNoSecretsLeaked(project, leaked);
    await project.remove();
  }
  await oauth.close();
});

async function project(): Promise<OAuthProject> {
  const created = await createOAuthProject(oauth.mcpUrl);
  projects.push(created);
  return created;
}

describe('stratos mcp login and logout', () => {
  test('login signs in through Chromium, saves one registered client, and run reuses the stored token', async () => {
    const p = await project();
    const registrationsBefore = oauth.as.registrations;
    const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {BROWSER: browserCommand()});
    assert.equal(login.exitCode, 0, login.stderr);
    assert.equal(login.json.ok, true);
    assert.equal(login.json.data.serverUrl, oauth.mcpUrl);
    assert.equal(login.json.data.authorizationServer, oauth.issuer);
    assert.match(login.stderr, /opening your browser at http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    assert.equal(oauth.as.registrations, registrationsBefore + 1);

    const data = await p.readCredentials();
    assert.equal(data.version, 1);
    assert.equal(data.records.length, 1);
    const record = data.records[0]!;
    assert.equal(record.serverUrl, oauth.mcpUrl);
    assert.equal(record.authorizationServer, oauth.issuer);
    assert.equal(typeof record.clientId, 'string');
    assert.equal(typeof record.accessToken, 'string');
    assert.equal(typeof record.refreshToken, 'string');
    assert.ok((record.expiresAt as number) > Date.now() / 1000 + 3000, 'a one-hour token');
    leaked.push(...(await storedSecrets(p)));

    // The access token works at the resource server.
    const response = await fetch(oauth.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${record.accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}},
      }),
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();

    const tokenRequests = {...oauth.as.tokenRequests};
    const marker = join(p.cwd, 'ran');
    const run = await p.run(['run', 'uses-stratum', '--input', '{"text":"hi"}', '--json'], {
      BROWSER: 'false',
      TEST_MARKER: marker,
    });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(existsSync(marker));
    assert.deepEqual(
      oauth.as.tokenRequests,
      tokenRequests,
      'a fresh stored token is reused without any token request',
    );

    // A second login signs in again but reuses the registered client: never registered twice.
    const again = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {
      BROWSER: browserCommand({user: 'alice'}),
    });
    assert.equal(again.exitCode, 0, again.stderr);
    assert.equal(again.json.data.clientId, record.clientId);
    assert.equal(oauth.as.registrations, registrationsBefore + 1);
    leaked.push(...(await storedSecrets(p)));

    const logout = await p.run(['mcp', 'logout', '--name', 'stratum']);
    assert.equal(logout.exitCode, 0, logout.stderr);
    assert.match(logout.stdout, /did not revoke/);
    assert.deepEqual((await p.readCredentials()).records, []);
  });

  test('a sign-in triggered inside stratos run completes through Chromium before the body runs', async () => {
    const p = await project();
    const marker = join(p.cwd, 'ran');
    const run = await p.run(['run', 'uses-stratum', '--input', '{"text":"hi"}', '--json'], {
      BROWSER: browserCommand({user: 'bob'}),
      TEST_MARKER: marker,
    });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.json.data.output.echo, 'hi');
    assert.ok(existsSync(marker));
    const [record] = (await p.readCredentials()).records;
    assert.equal(typeof record?.accessToken, 'string');
    leaked.push(...(await storedSecrets(p)));
  });

  test('logout without stored credentials says so and --name is required', async () => {
    const p = await project();
    const logout = await p.run(['mcp', 'logout', '--name', 'stratum', '--json']);
    assert.equal(logout.exitCode, 0);
    assert.deepEqual(logout.json.data.removed, []);
    assert.equal(logout.json.data.revoked, false);
    const missing = await p.run(['mcp', 'login', '--json']);
    assert.equal(missing.exitCode, 1);
    assert.equal(missing.json.error.code, 'STRATOS_CLI_USAGE');
    const unknown = await p.run(['mcp', 'login', '--name', 'nope', '--json']);
    assert.equal(unknown.json.error.code, 'STRATOS_MCP_SERVER_UNKNOWN');
  });
});

describe('sign-in failures end in catchable authentication errors and stop the run', () => {
  test('a denied consent (error parameter on the callback)', async () => {
    const p = await project();
    const marker = join(p.cwd, 'ran');
    const run = await p.run(['run', 'uses-stratum', '--input', '{"text":"x"}', '--json'], {
      BROWSER: browserCommand({action: 'deny'}),
      TEST_MARKER: marker,
    });
    assert.equal(run.exitCode, 1);
    assert.equal(run.json.error.code, 'STRATOS_AUTH_CALLBACK_ERROR');
    assert.match(run.json.error.message, /access_denied/);
    assert.ok(!existsSync(marker), 'the workflow body did not run');
  });

  test('a browser that cannot be opened: the error says so and prints the URL', async () => {
    const p = await project();
    const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {BROWSER: 'false'});
    assert.equal(login.exitCode, 1);
    assert.equal(login.json.error.code, 'STRATOS_AUTH_BROWSER_FAILED');
    assert.match(login.json.error.message, /BROWSER command 'false' exited with status 1/);
    assert.match(login.json.error.message, /open this URL by hand.*http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    const missing = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {
      BROWSER: '/nonexistent/browser',
    });
    assert.equal(missing.json.error.code, 'STRATOS_AUTH_BROWSER_FAILED');
  });

  test('a callback with a wrong state is rejected', async () => {
    const p = await project();
    const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {
      BROWSER: fakeCallbackCommand('wrong-state'),
    });
    assert.equal(login.exitCode, 1);
    assert.equal(login.json.error.code, 'STRATOS_AUTH_STATE_MISMATCH');
    const tokenless = (await p.readCredentials()).records.every((record) => record.accessToken === undefined);
    assert.ok(tokenless, 'no code was exchanged');
  });

  test('a sign-in that is never completed times out', async () => {
    const p = await project();
    const started = Date.now();
    const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {
      BROWSER: browserCommand({action: 'ignore'}),
      STRATOS_OAUTH_SIGN_IN_TIMEOUT_MS: '3000',
    });
    assert.equal(login.exitCode, 1);
    assert.equal(login.json.error.code, 'STRATOS_AUTH_TIMEOUT');
    assert.ok(Date.now() - started >= 3000);
  });
});
