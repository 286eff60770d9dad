// The credential store on a real filesystem: format, permissions, malformed files, the file lock across real
// processes, stale locks, and pending rotations.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {AuthenticationError, isStratosError} from '../../../src/errors/index.ts';
import {type CredentialRecord, CredentialStore, withFileLock} from '../../../src/mcp/credentials/index.ts';

const folders: string[] = [];
after(async () => {
  for (const folder of folders) await rm(folder, {recursive: true, force: true});
});

async function home(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'stratos-credentials-'));
  folders.push(base);
  return join(base, 'home');
}

const canary = 'canary-token-value-5b1e0c77d2a94f18';
const record: CredentialRecord = {
  serverUrl: 'https://mcp.example.com/mcp',
  authorizationServer: 'https://auth.example.com',
  clientId: 'client-1',
  accessToken: canary,
  refreshToken: `${canary}-refresh`,
  expiresAt: 2_000_000_000,
  scope: 'mcp:read',
};

test('a missing file is no credentials; the first write creates a 0700 directory and a 0600 version 1 file', async () => {
  const store = new CredentialStore({home: await home()});
  assert.deepEqual(await store.read(), []);
  await store.upsert(record);
  assert.equal((await stat(store.home)).mode & 0o777, 0o700);
  assert.equal((await stat(store.file)).mode & 0o777, 0o600);
  const data = JSON.parse(await readFile(store.file, 'utf8'));
  assert.deepEqual(data, {version: 1, records: [record]});
  assert.deepEqual(
    (await readdir(store.home)).sort(),
    ['credentials.json'],
    'no temporary or lock file is left',
  );
});

test('a Stratos home readable by others is tightened to 0700 on write', async () => {
  const folder = await home();
  await mkdir(folder, {mode: 0o755});
  await chmod(folder, 0o755);
  await new CredentialStore({home: folder}).upsert(record);
  assert.equal((await stat(folder)).mode & 0o777, 0o700);
});

test('a credential file readable by others is an error and is left as it is', async () => {
  const store = new CredentialStore({home: await home()});
  await store.upsert(record);
  await chmod(store.file, 0o644);
  const before = await readFile(store.file, 'utf8');
  for (const attempt of [() => store.read(), () => store.upsert({...record, clientId: 'other'})]) {
    await assert.rejects(attempt, (error: unknown) => {
      assert.ok(error instanceof AuthenticationError);
      assert.equal(error.code, 'STRATOS_CREDENTIALS_PERMISSIONS');
      assert.match(error.message, /mode 644.*chmod 600/);
      return true;
    });
  }
  assert.equal(await readFile(store.file, 'utf8'), before);
  assert.equal((await stat(store.file)).mode & 0o777, 0o644);
});

test('malformed data is a clear error that quotes no value, and the file is left as it is', async () => {
  const store = new CredentialStore({home: await home()});
  await mkdir(store.home, {recursive: true, mode: 0o700});
  const cases = [
    `{"version": 1, "records": [{"accessToken": "${canary}" oops`,
    JSON.stringify({version: 2, records: []}),
    JSON.stringify({
      version: 1,
      records: [{serverUrl: 'x', authorizationServer: 'y', clientId: 'z', expiresAt: canary}],
    }),
    JSON.stringify({version: 1, records: {}}),
  ];
  for (const text of cases) {
    await writeFile(store.file, text, {mode: 0o600});
    await assert.rejects(store.read(), (error: unknown) => {
      assert.ok(isStratosError(error));
      assert.equal(error.code, 'STRATOS_CREDENTIALS_MALFORMED');
      assert.ok(error.message.includes(store.file));
      assert.ok(!error.message.includes(canary), 'no value of the file is quoted');
      assert.ok(!JSON.stringify(error.details).includes(canary));
      return true;
    });
    await assert.rejects(store.upsert(record), {code: 'STRATOS_CREDENTIALS_MALFORMED'});
    assert.equal(await readFile(store.file, 'utf8'), text, 'the malformed file was not replaced');
  }
});

test('concurrent modifications from eight processes all land (the short file lock)', async () => {
  const folder = await home();
  const script = `
    import {CredentialStore} from ${JSON.stringify(new URL('../../../src/mcp/credentials/index.ts', import.meta.url).href)};
    const store = new CredentialStore({home: process.argv[1]});
    for (let i = 0; i < 5; i++) {
      await store.upsert({serverUrl: 'https://s/mcp', authorizationServer: 'https://a', clientId: process.argv[2] + '-' + i});
    }`;
  const codes = await Promise.all(
    Array.from({length: 8}, (_, index) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, folder, `p${index}`], {
        stdio: 'inherit',
      });
      return new Promise<number | null>((resolve) => child.on('close', resolve));
    }),
  );
  assert.deepEqual(codes, Array(8).fill(0));
  const records = await new CredentialStore({home: folder}).read();
  assert.equal(records.length, 40);
  JSON.parse(await readFile(join(folder, 'credentials.json'), 'utf8'));
});

test('a lock left by a dead process is broken; a live one times out with a clear error', async () => {
  const folder = await home();
  await mkdir(folder, {recursive: true});
  const lock = join(folder, 'test.lock');
  await writeFile(
    lock,
    JSON.stringify({
      pid: 2 ** 22 + 12345,
      host: (await import('node:os')).hostname(),
      token: 'x',
      createdAt: Date.now(),
    }),
  );
  assert.equal(
    await withFileLock(lock, {timeoutMs: 1000, staleMs: 60_000, label: 'test'}, async () => 'got it'),
    'got it',
  );
  await writeFile(
    lock,
    JSON.stringify({
      pid: process.pid,
      host: (await import('node:os')).hostname(),
      token: 'y',
      createdAt: Date.now(),
    }),
  );
  await assert.rejects(
    withFileLock(lock, {timeoutMs: 200, staleMs: 60_000, label: 'test'}, async () => 'never'),
    {code: 'STRATOS_CREDENTIALS_LOCK_TIMEOUT'},
  );
  assert.equal(JSON.parse(await readFile(lock, 'utf8')).token, 'y', 'a live lock is not removed');
});

test('a pending rotation is folded in by readers and consumed by the next modification', async () => {
  const store = new CredentialStore({home: await home()});
  await store.upsert(record);
  const pending = await store.prepareRotation(record);
  const rotated = {...record, accessToken: `${canary}-2`, refreshToken: `${canary}-refresh-2`};
  await pending.write(rotated);
  assert.deepEqual(await store.read(), [rotated]);
  assert.equal(JSON.parse(await readFile(store.file, 'utf8')).records[0].refreshToken, record.refreshToken);
  await store.upsert({...record, clientId: 'another'});
  assert.equal((await readdir(store.home)).filter((name) => name.includes('pending')).length, 0);
  const records = await store.read();
  assert.equal(records.find((item) => item.clientId === 'client-1')?.refreshToken, rotated.refreshToken);

  // A pending rotation of a refresh token that is no longer the stored one (a later sign-in) is stale.
  const stale = await store.prepareRotation(record);
  await stale.write({...record, refreshToken: 'old-rotation-value'});
  assert.equal(
    (await store.read()).find((item) => item.clientId === 'client-1')?.refreshToken,
    rotated.refreshToken,
  );
});

test('every write keeps unknown record fields, a replacing record and a pending rotation included', async () => {
  const store = new CredentialStore({home: await home()});
  await mkdir(store.home, {recursive: true, mode: 0o700});
  const stored = {...record, accessToken: undefined, refreshToken: undefined, futureField: {kept: true}};
  await writeFile(store.file, JSON.stringify({version: 1, top: 'kept', records: [stored]}), {mode: 0o600});
  // A writer that builds its record from scratch (no unknownFields) replaces the stored one.
  await store.update((records) => ({records: [...records.slice(1), {...record}], result: undefined}));
  let data = JSON.parse(await readFile(store.file, 'utf8'));
  assert.equal(data.top, 'kept');
  assert.deepEqual(data.records[0].futureField, {kept: true});
  assert.equal(data.records[0].accessToken, canary);

  // A rotation goes through the pending file and keeps them too, without nesting them.
  const [current] = await store.read();
  const pending = await store.prepareRotation(current!);
  await pending.write({...current!, refreshToken: `${canary}-refresh-2`});
  assert.deepEqual((await store.read())[0]?.unknownFields, {futureField: {kept: true}});
  await store.upsert({...record, clientId: 'another'});
  data = JSON.parse(await readFile(store.file, 'utf8'));
  const rotated = data.records.find((item: {clientId: string}) => item.clientId === 'client-1');
  assert.equal(rotated.refreshToken, `${canary}-refresh-2`);
  assert.deepEqual(rotated.futureField, {kept: true});
  assert.equal(rotated.unknownFields, undefined);
});

test('logout removes the records of a server and returns identities only', async () => {
  const store = new CredentialStore({home: await home()});
  await store.upsert(record);
  await store.upsert({...record, serverUrl: 'https://other/mcp'});
  const removed = await store.remove((item) => item.serverUrl === record.serverUrl);
  assert.deepEqual(removed, [
    {serverUrl: record.serverUrl, authorizationServer: record.authorizationServer, clientId: 'client-1'},
  ]);
  assert.equal((await store.read()).length, 1);
});
