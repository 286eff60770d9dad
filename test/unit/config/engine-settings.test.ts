import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {readEngineSettings, resolveEngineDatabaseUrl} from '../../../src/config/engine-settings.ts';
import {redactCredentialSecrets} from '../../../src/errors/index.ts';

const home = mkdtempSync(join(tmpdir(), 'stratos-engine-settings-'));
after(() => rmSync(home, {recursive: true, force: true}));

function withSettings(settings: unknown): void {
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
}

test('no engine section and no environment variable: no engine, everything stays local', () => {
  withSettings({agents: {maxActive: 3}});
  assert.equal(readEngineSettings(home, {}), undefined);
});

test('STRATOS_ENGINE_DATABASE_URL configures the engine in CI, as a reference to itself', () => {
  withSettings({});
  const settings = readEngineSettings(home, {STRATOS_ENGINE_DATABASE_URL: 'postgresql://u:p@h/db'});
  assert.deepEqual(settings, {
    engine: 'dbos',
    databaseUrl: '{env:STRATOS_ENGINE_DATABASE_URL}',
    queues: {},
    source: 'STRATOS_ENGINE_DATABASE_URL',
  });
});

test('the settings name the engine, its database URL as a reference and its queues', async () => {
  withSettings({engine: {type: 'dbos', databaseUrl: '{env:MY_DB}', queues: {nightly: {concurrency: 4}}}});
  const settings = readEngineSettings(home, {})!;
  assert.deepEqual(settings.queues, {nightly: {concurrency: 4}});
  const url = await resolveEngineDatabaseUrl(
    {...settings, databaseUrl: '{env:STRATOS_TEST_ENGINE_URL}'},
    home,
  ).catch((error: Error) => error);
  assert.ok(url instanceof Error && (url as {code?: string}).code === 'STRATOS_CONFIG_ENV_MISSING');
  process.env.STRATOS_TEST_ENGINE_URL = 'postgresql://stratos:s3cret-pass@127.0.0.1:5432/db';
  try {
    const resolved = await resolveEngineDatabaseUrl(
      {...settings, databaseUrl: '{env:STRATOS_TEST_ENGINE_URL}'},
      home,
    );
    assert.equal(resolved, process.env.STRATOS_TEST_ENGINE_URL);
    // The URL and its password alone are secrets from now on.
    assert.equal(redactCredentialSecrets('password s3cret-pass'), 'password [REDACTED]');
  } finally {
    delete process.env.STRATOS_TEST_ENGINE_URL;
  }
});

test('a database URL in clear, an unknown key or a bad queue is a settings error naming the field', () => {
  const cases: [unknown, RegExp][] = [
    [{type: 'dbos', databaseUrl: 'postgresql://u:p@h/db'}, /holds a URL in clear/],
    [{type: 'temporal', databaseUrl: '{env:X}'}, /"engine.type" must be "dbos"/],
    [{type: 'dbos', databaseUrl: '{env:X}', pool: 3}, /"engine.pool" is not a known setting/],
    [{type: 'dbos', databaseUrl: '{env:X}', queues: {Bad: {}}}, /"engine.queues.Bad" is not a queue name/],
    [{type: 'dbos', databaseUrl: '{env:X}', queues: {q: {concurrency: 0}}}, /must be a positive integer/],
  ];
  for (const [engine, message] of cases) {
    withSettings({engine});
    assert.throws(
      () => readEngineSettings(home, {}),
      (error: Error & {code?: string}) =>
        error.code === 'STRATOS_SETTINGS_INVALID' && message.test(error.message),
    );
  }
});
