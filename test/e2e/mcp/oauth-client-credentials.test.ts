// The client-credentials grant (SEP-1046) end to end: the real CLI, a real authorization server (oidc-provider
// with the client_credentials grant and pre-registered machine clients) and the Stratum-like MCP resource server.
// No browser is available (BROWSER is a command that fails): every token comes from a token request.
import assert from 'node:assert/strict';
import {generateKeyPairSync} from 'node:crypto';
import {existsSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';
import {assertNoSecretsLeaked, createOAuthProject, type OAuthProject} from '../../servers/oauth/project.ts';

const secret = 'machine-secret-7f3a9c1e5b';
const keys = generateKeyPairSync('ec', {namedCurve: 'P-256'});
const privatePem = keys.privateKey.export({type: 'pkcs8', format: 'pem'}).toString();
const publicJwk = {...keys.publicKey.export({format: 'jwk'}), kid: 'ci-key', use: 'sig', alg: 'ES256'};
const machineClients = [
  {
    client_id: 'stratos-ci',
    client_secret: secret,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  },
  {
    client_id: 'stratos-ci-jwt',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    jwks: {keys: [publicJwk]},
  },
];
/** A BROWSER command that fails: a browser sign-in attempt would end the run with STRATOS_AUTH_BROWSER_FAILED. */
const noBrowser = {BROWSER: 'false'};

/** Calls stratum_whoami through the generated wrapper, so the token is used at the MCP server. */
const whoamiWorkflow = `import {writeFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createStratum from './generated/mcp/stratum.js';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to echo')}),
  output: z.object({echo: z.string().describe('The text'), user: z.string().describe('Who the MCP server saw')}),
  async run({text}) {
    if (process.env.TEST_MARKER) writeFileSync(process.env.TEST_MARKER, 'ran');
    const stratum = await createStratum();
    const result = await stratum.stratum_whoami({});
    return {echo: text, user: String((result.structuredContent as {user?: unknown}).user)};
  },
});
`;

let oauth: OAuthTestServers;
let withoutGrant: OAuthTestServers;
let secretOnly: OAuthTestServers;
const projects: OAuthProject[] = [];

before(async () => {
  [oauth, withoutGrant, secretOnly] = await Promise.all([
    startOAuthServers({clients: machineClients, clientCredentials: true}),
    startOAuthServers({clients: machineClients.slice(0, 1), clientCredentials: false}),
    startOAuthServers({
      clients: machineClients.slice(0, 1),
      clientCredentials: true,
      clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    }),
  ]);
});
after(async () => {
  for (const project of projects) {
    await assertNoSecretsLeaked(project, [secret, privatePem.split('\n')[1]!]);
    await project.remove();
  }
  await Promise.all([oauth.close(), withoutGrant.close(), secretOnly.close()]);
});

async function project(authYaml: string[], mcpUrl = oauth.mcpUrl): Promise<OAuthProject> {
  const created = await createOAuthProject(mcpUrl, {authYaml: ['grant: client_credentials', ...authYaml]});
  projects.push(created);
  return created;
}

function run(p: OAuthProject, env: NodeJS.ProcessEnv = {}) {
  return p.run(['run', 'uses-stratum', '--input', '{"text":"hi"}', '--json'], {
    ...noBrowser,
    TEST_MARKER: join(p.cwd, 'ran'),
    ...env,
  });
}

describe('client credentials with a client secret', () => {
  test('a run fetches a token without a browser, a second run reuses it, an expiring one is fetched again', async () => {
    const p = await project(['clientId: stratos-ci', 'clientSecret: "{env:STRATUM_CI_SECRET}"']);
    await p.writeWorkflow('uses-stratum', {'workflow.ts': whoamiWorkflow});
    const env = {STRATUM_CI_SECRET: secret};
    const before = oauth.as.tokenRequests.client_credentials ?? 0;

    const first = await run(p, env);
    assert.equal(first.exitCode, 0, first.stderr);
    assert.deepEqual(first.json.data.output, {echo: 'hi', user: 'client:stratos-ci'});
    assert.equal(
      oauth.as.tokenRequests.client_credentials,
      before + 1,
      'one token request for build and run',
    );
    assert.equal(oauth.as.tokenRequests.refresh_token, undefined);
    assert.equal(oauth.as.registrations, 0, 'a machine client is never registered');
    const stored = await p.readCredentials();
    assert.equal(stored.records.length, 1);
    const record = stored.records[0]!;
    assert.equal(record.serverUrl, oauth.mcpUrl);
    assert.equal(record.authorizationServer, oauth.issuer);
    assert.equal(record.clientId, 'stratos-ci');
    assert.equal(record.tokenEndpointAuthMethod, 'client_secret_basic');
    assert.equal(typeof record.accessToken, 'string');
    assert.ok((record.expiresAt as number) > Date.now() / 1000 + 3000, 'a one-hour token');
    assert.equal(record.refreshToken, undefined, 'no refresh token is kept');
    assert.equal(record.clientSecret, undefined, 'the secret stays behind its reference');
    assert.equal(record.scope, 'mcp:read mcp:write', 'the scope of the 401 challenge');
    assert.ok(oauth.rs.acceptedTokens.includes(record.accessToken as string));

    const second = await run(p, env);
    assert.equal(second.exitCode, 0, second.stderr);
    assert.equal(oauth.as.tokenRequests.client_credentials, before + 1, 'the stored token is reused');
    assert.equal((await p.readCredentials()).records[0]!.accessToken, record.accessToken);

    // Under the five-minute margin: fetched again with the client credential, no refresh token, no browser.
    await p.setExpiry(120);
    const third = await run(p, env);
    assert.equal(third.exitCode, 0, third.stderr);
    assert.equal(oauth.as.tokenRequests.client_credentials, before + 2);
    assert.equal(oauth.as.tokenRequests.refresh_token, undefined);
    const renewed = (await p.readCredentials()).records;
    assert.equal(renewed.length, 1);
    assert.notEqual(renewed[0]!.accessToken, record.accessToken);

    // stratos mcp login fetches and stores a new token, without a browser.
    const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {...noBrowser, ...env});
    assert.equal(login.exitCode, 0, login.stderr);
    assert.equal(login.json.data.grant, 'client_credentials');
    assert.equal(login.json.data.clientId, 'stratos-ci');
    assert.match(login.json.message, /Fetched a client-credentials token/);
    assert.equal(oauth.as.tokenRequests.client_credentials, before + 3);
    assert.notEqual((await p.readCredentials()).records[0]!.accessToken, renewed[0]!.accessToken);
  });

  test('mcp login keeps fields it does not know, in the file and in the record it replaces', async () => {
    const p = await project(['clientId: stratos-ci', 'clientSecret: "{env:STRATUM_CI_SECRET}"']);
    const identity = {serverUrl: oauth.mcpUrl, authorizationServer: oauth.issuer, clientId: 'stratos-ci'};
    const other = {...identity, clientId: 'someone-else', otherExtra: [1, 2]};
    await writeFile(
      p.credentialsFile,
      JSON.stringify({
        version: 1,
        writtenBy: 'a newer Stratos',
        records: [
          {...identity, accessToken: 'expired-token-value', expiresAt: 1, futureField: {kept: true}},
          other,
        ],
      }),
      {mode: 0o600},
    );
    const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {
      ...noBrowser,
      STRATUM_CI_SECRET: secret,
    });
    assert.equal(login.exitCode, 0, login.stderr);
    const data = (await p.readCredentials()) as Record<string, unknown> & {
      records: Record<string, unknown>[];
    };
    assert.equal(data.writtenBy, 'a newer Stratos');
    const record = data.records.find((item) => item.clientId === 'stratos-ci')!;
    assert.notEqual(record.accessToken, 'expired-token-value', 'a new token was stored');
    assert.deepEqual(record.futureField, {kept: true});
    assert.deepEqual(data.records.find((item) => item.clientId === 'someone-else')?.otherExtra, [1, 2]);
  });

  test('a wrong secret fails before the body runs and stores nothing', async () => {
    const p = await project(['clientId: stratos-ci', 'clientSecret: "{env:STRATUM_CI_SECRET}"']);
    const result = await run(p, {STRATUM_CI_SECRET: 'not-the-secret-123'});
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.error.code, 'STRATOS_AUTH_CLIENT_REJECTED');
    assert.match(result.json.error.message, /rejected client 'stratos-ci'.*Nothing was stored/s);
    assert.ok(!existsSync(join(p.cwd, 'ran')), 'the workflow body did not run');
    assert.ok(!existsSync(p.credentialsFile), 'no credential file was written');
    assert.ok(!result.stdout.includes('not-the-secret-123') && !result.stderr.includes('not-the-secret-123'));
  });

  test('a server that does not advertise the grant fails with the fix, nothing sent or stored', async () => {
    const p = await project(
      ['clientId: stratos-ci', 'clientSecret: "{env:STRATUM_CI_SECRET}"'],
      withoutGrant.mcpUrl,
    );
    const result = await run(p, {STRATUM_CI_SECRET: secret});
    assert.equal(result.exitCode, 1);
    assert.equal(result.json.error.code, 'STRATOS_AUTH_GRANT_UNSUPPORTED');
    assert.match(result.json.error.message, /does not advertise the client_credentials grant/);
    assert.equal(withoutGrant.as.tokenRequests.client_credentials, undefined);
    assert.ok(!existsSync(join(p.cwd, 'ran')));
    assert.ok(!existsSync(p.credentialsFile));
  });

  test('an inline secret is refused by the manifest check', async () => {
    const p = await project(['clientId: stratos-ci', `clientSecret: ${secret}`]);
    const result = await p.run(['list', '--json']);
    const diagnostics = JSON.stringify(result.json);
    assert.match(diagnostics, /auth.clientSecret' must be one \{env:NAME\} or \{file:path\} reference/);
    assert.ok(!diagnostics.includes(secret), 'the diagnostic does not quote the secret');
    // The canary check of after() does not apply to this project: its workflow.yaml holds the secret on purpose.
    projects.splice(projects.indexOf(p), 1);
    await p.remove();
  });
});

describe('client credentials with private_key_jwt', () => {
  test('an owner-only key file signs the assertion; a second run reuses the token', async () => {
    const p = await project(['clientId: stratos-ci-jwt', 'privateKey: "{file:ci-key.pem}"']);
    const keyFile = join(p.projectRoot, 'uses-stratum', 'ci-key.pem');
    await writeFile(keyFile, privatePem, {mode: 0o600});
    const before = oauth.as.tokenRequests.client_credentials ?? 0;
    const first = await run(p);
    assert.equal(first.exitCode, 0, first.stderr);
    assert.ok(existsSync(join(p.cwd, 'ran')));
    const record = (await p.readCredentials()).records[0]!;
    assert.equal(record.clientId, 'stratos-ci-jwt');
    assert.equal(record.tokenEndpointAuthMethod, 'private_key_jwt');
    assert.equal(oauth.as.tokenRequests.client_credentials, before + 1);
    const second = await run(p);
    assert.equal(second.exitCode, 0, second.stderr);
    assert.equal(oauth.as.tokenRequests.client_credentials, before + 1);
  });

  test('a key file readable by others, an invalid key and an unadvertised method fail before the body', async () => {
    const loose = await project(['clientId: stratos-ci-jwt', 'privateKey: "{file:ci-key.pem}"']);
    await writeFile(join(loose.projectRoot, 'uses-stratum', 'ci-key.pem'), privatePem, {mode: 0o644});
    const permissions = await run(loose);
    assert.equal(permissions.json.error.code, 'STRATOS_CONFIG_FILE_PERMISSIONS');
    assert.ok(!existsSync(loose.credentialsFile));

    const garbage = await project(['clientId: stratos-ci-jwt', 'privateKey: "{env:CI_KEY}"']);
    const invalid = await run(garbage, {CI_KEY: 'not a key at all'});
    assert.equal(invalid.json.error.code, 'STRATOS_AUTH_KEY_INVALID');
    assert.ok(!existsSync(join(garbage.cwd, 'ran')));
    assert.ok(!existsSync(garbage.credentialsFile));

    const method = await project(
      ['clientId: stratos-ci-jwt', 'privateKey: "{env:CI_KEY}"'],
      secretOnly.mcpUrl,
    );
    const unsupported = await run(method, {CI_KEY: privatePem});
    assert.equal(unsupported.json.error.code, 'STRATOS_AUTH_METHOD_UNSUPPORTED');
    assert.match(unsupported.json.error.message, /does not accept private_key_jwt.*Configure clientSecret/s);
    assert.equal(secretOnly.as.tokenRequests.client_credentials, undefined);
    assert.ok(!existsSync(method.credentialsFile));
  });
});
