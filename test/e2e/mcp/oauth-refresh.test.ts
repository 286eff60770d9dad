// Token refresh at workflow start, end to end: real CLI processes, a real authorization server that rotates
// refresh tokens on every use (and revokes the grant when a used one is replayed), real Chromium for sign-in.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {mkdir, readdir, readFile, rename, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {browserCommand, type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';
import {
  assertNoSecretsLeaked,
  createOAuthProject,
  type OAuthProject,
  storedSecrets,
} from '../../servers/oauth/project.ts';

let oauth: OAuthTestServers;
const projects: OAuthProject[] = [];
const leaked: string[] = [];
const input = ['--input', '{"text":"hi"}', '--json'];

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

/** A project signed in through Chromium, with its first record returned. */
async function signedInProject(): Promise<{p: OAuthProject; record: Record<string, unknown>}> {
  const p = await createOAuthProject(oauth.mcpUrl);
  projects.push(p);
  const login = await p.run(['mcp', 'login', '--name', 'stratum', '--json'], {BROWSER: browserCommand()});
  assert.equal(login.exitCode, 0, login.stderr);
  leaked.push(...(await storedSecrets(p)));
  return {p, record: (await p.readCredentials()).records[0]!};
}

function refreshCount(): number {
  return oauth.as.tokenRequests.refresh_token ?? 0;
}

describe('workflow-start refresh', () => {
  test('a near-expiry token is refreshed once, the rotated refresh token is saved, and the body runs', async () => {
    const {p, record} = await signedInProject();
    await p.setExpiry(60);
    const before = refreshCount();
    const marker = join(p.cwd, 'ran');
    const run = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false', TEST_MARKER: marker});
    assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    assert.ok(existsSync(marker));
    assert.equal(refreshCount(), before + 1);
    const [next] = (await p.readCredentials()).records;
    assert.notEqual(next!.refreshToken, record.refreshToken, 'the refresh token was rotated and saved');
    assert.notEqual(next!.accessToken, record.accessToken);
    assert.ok((next!.expiresAt as number) > Date.now() / 1000 + 3000);
    leaked.push(...(await storedSecrets(p)));
  });

  test('an expired token is refreshed rather than reported as sign-in required', async () => {
    const {p} = await signedInProject();
    await p.setExpiry(-600);
    const before = refreshCount();
    const run = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    assert.equal(refreshCount(), before + 1);
    leaked.push(...(await storedSecrets(p)));
  });

  test('eight processes needing the same refresh make exactly one refresh request and all succeed', async () => {
    const {p} = await signedInProject();
    // Build once so the eight runs only read the build.
    const warm = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    assert.equal(warm.exitCode, 0, warm.stdout + warm.stderr);
    await p.setExpiry(30);
    const before = refreshCount();
    const runs = await Promise.all(
      Array.from({length: 8}, () => p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'})),
    );
    for (const run of runs) assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    assert.equal(refreshCount(), before + 1, 'exactly one refresh request');
    const data = JSON.parse(await readFile(p.credentialsFile, 'utf8'));
    assert.equal(data.version, 1);
    assert.equal(data.records.length, 1);
    assert.deepEqual(
      (await readdir(p.home)).filter((name) => name.includes('.lock') || name.includes('pending')),
      [],
    );
    leaked.push(...(await storedSecrets(p)));
  });

  test('a token without expiry stays usable and is not refreshed', async () => {
    const {p} = await signedInProject();
    const data = await p.readCredentials();
    delete data.records[0]!.expiresAt;
    await writeFile(p.credentialsFile, JSON.stringify(data), {mode: 0o600});
    const before = refreshCount();
    const run = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    assert.equal(refreshCount(), before);
  });
});

describe('refresh failures', () => {
  test('a replayed rotated refresh token is refused (invalid_grant) and sign-in is asked for again', async () => {
    const {p, record} = await signedInProject();
    await p.setExpiry(60);
    const first = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    assert.equal(first.exitCode, 0, first.stderr);
    // Put the used refresh token back, as a client that lost its rotated token would have it.
    const data = await p.readCredentials();
    data.records[0]!.refreshToken = record.refreshToken;
    data.records[0]!.expiresAt = Math.floor(Date.now() / 1000) + 60;
    await writeFile(p.credentialsFile, JSON.stringify(data), {mode: 0o600});
    const invalidBefore = oauth.as.tokenErrors.invalid_grant ?? 0;

    const refused = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    assert.equal(refused.exitCode, 1);
    assert.equal(oauth.as.tokenErrors.invalid_grant, invalidBefore + 1);
    assert.equal(refused.json.error.code, 'STRATOS_AUTH_BROWSER_FAILED', 'a new sign-in was started');
    assert.match(refused.stderr, /no longer accepted; signing in again/);
    const cleared = (await p.readCredentials()).records[0]!;
    assert.equal(cleared.refreshToken, undefined, 'the dead tokens were cleared');
    assert.equal(cleared.clientId, record.clientId, 'the registered client was kept');

    const signedIn = await p.run(['run', 'uses-stratum', ...input], {BROWSER: browserCommand()});
    assert.equal(signedIn.exitCode, 0, signedIn.stderr);
    leaked.push(...(await storedSecrets(p)));
  });

  test('a network failure during refresh keeps the stored credentials and stops the run', async () => {
    const {p} = await signedInProject();
    await p.setExpiry(60);
    const stored = await readFile(p.credentialsFile, 'utf8');
    // The connection drops before the response arrives (the request itself reached the server).
    oauth.as.settings.afterTokenRequest = (grantType, _ok, connection) => {
      if (grantType === 'refresh_token') connection.drop();
    };
    const marker = join(p.cwd, 'ran');
    try {
      const run = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false', TEST_MARKER: marker});
      assert.equal(run.exitCode, 1);
      assert.equal(run.json.error.code, 'STRATOS_AUTH_REFRESH_FAILED');
      assert.match(run.json.error.message, /stored credentials were kept/);
    } finally {
      oauth.as.settings.afterTokenRequest = undefined;
    }
    assert.equal(await readFile(p.credentialsFile, 'utf8'), stored, 'the credential file is unchanged');
    assert.ok(!existsSync(marker), 'the workflow body did not run');
  });

  test('a refreshed token that is too short is saved, not refreshed again, and the body does not run', async () => {
    const {p} = await signedInProject();
    await p.setExpiry(60);
    oauth.as.settings.accessTokenTtlSeconds = 200;
    const before = refreshCount();
    const marker = join(p.cwd, 'ran');
    try {
      const run = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false', TEST_MARKER: marker});
      assert.equal(run.exitCode, 1);
      assert.equal(run.json.error.code, 'STRATOS_AUTH_TOKEN_TOO_SHORT');
      assert.ok(!existsSync(marker));
      assert.equal(refreshCount(), before + 1, 'one refresh, no retry for a longer token');
      const [record] = (await p.readCredentials()).records;
      assert.ok((record!.expiresAt as number) <= Date.now() / 1000 + 200, 'the short token was saved');
      const found = await oauth.as.provider.RefreshToken.find(record!.refreshToken as string);
      assert.ok(found !== undefined && !found.consumed, 'the saved refresh token is the current one');
      leaked.push(...(await storedSecrets(p)));
    } finally {
      oauth.as.settings.accessTokenTtlSeconds = 3600;
    }
  });

  test('rotated tokens survive a failed save: kept in a pending file and recovered by the next command', async () => {
    const {p} = await signedInProject();
    await p.setExpiry(60);
    const aside = `${p.credentialsFile}.aside`;
    oauth.as.settings.afterTokenRequest = async (grantType) => {
      if (grantType !== 'refresh_token') return;
      // The credential file becomes unwritable (a directory in its place) while the refresh is answered.
      await rename(p.credentialsFile, aside);
      await mkdir(p.credentialsFile);
    };
    let run: Awaited<ReturnType<OAuthProject['run']>>;
    try {
      run = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    } finally {
      oauth.as.settings.afterTokenRequest = undefined;
    }
    assert.equal(run.exitCode, 1);
    assert.equal(run.json.error.code, 'STRATOS_CREDENTIALS_WRITE_FAILED');
    assert.match(run.json.error.message, /pending-/);
    const pending = (await readdir(p.home)).filter((name) => name.startsWith('credentials.json.pending-'));
    assert.equal(pending.length, 1);
    await rm(p.credentialsFile, {recursive: true});
    await rename(aside, p.credentialsFile);

    const before = {...oauth.as.tokenRequests};
    const next = await p.run(['run', 'uses-stratum', ...input], {BROWSER: 'false'});
    assert.equal(next.exitCode, 0, next.stderr);
    assert.deepEqual(
      oauth.as.tokenRequests,
      before,
      'the recovered rotated token is fresh: no refresh, no sign-in',
    );
    // The next modification folds the pending file into the credential file.
    const {CredentialStore} = await import('../../../src/mcp/credentials/index.ts');
    const store = new CredentialStore({home: p.home});
    const [recovered] = await store.read();
    const found = await oauth.as.provider.RefreshToken.find(recovered!.refreshToken!);
    assert.ok(
      found !== undefined && !found.consumed,
      'the recovered refresh token is the rotated, current one',
    );
    await store.upsert(recovered!);
    assert.deepEqual(
      (await readdir(p.home)).filter((name) => name.includes('pending')),
      [],
    );
    leaked.push(...(await storedSecrets(p)));
  });
});
