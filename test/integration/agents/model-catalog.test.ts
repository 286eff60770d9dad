// Provider model catalogs read from a scripted catalog server on 127.0.0.1: complete, paged, partial, invalid,
// refused and failing; each failure is a coded error, never an empty list.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {readModelCatalog} from '../../../src/agents/selection/read-model-catalog.ts';
import {isStratosError} from '../../../src/errors/index.ts';
import {type CatalogMode, startCatalogServer} from '../../servers/catalogs/index.ts';

async function withCatalog<T>(mode: CatalogMode, fn: (url: string) => Promise<T>): Promise<T> {
  const server = await startCatalogServer(mode);
  try {
    return await fn(server.url);
  } finally {
    await server.close();
  }
}

const anthropicEnv = (url: string) => ({ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url});

test('an Anthropic listing without has_more is complete; pages are followed', async () => {
  const complete = await withCatalog({kind: 'complete', models: ['claude-sonnet-4-5']}, (url) =>
    readModelCatalog('anthropic', {env: anthropicEnv(url)}),
  );
  assert.deepEqual(complete, {complete: true, models: new Set(['claude-sonnet-4-5'])});
  const paged = await withCatalog({kind: 'paged', pages: [['a'], ['b'], ['c']]}, (url) =>
    readModelCatalog('anthropic', {env: anthropicEnv(url)}),
  );
  assert.deepEqual(paged, {complete: true, models: new Set(['a', 'b', 'c'])});
});

test('a listing that says there is more without a cursor is partial', async () => {
  const partial = await withCatalog({kind: 'partial', models: ['a']}, (url) =>
    readModelCatalog('anthropic', {env: anthropicEnv(url)}),
  );
  assert.deepEqual(partial, {complete: false, models: new Set(['a'])});
});

test('an OpenAI listing is complete and sent with the bearer key', async () => {
  const server = await startCatalogServer({kind: 'complete', models: ['gpt-5']});
  try {
    const catalog = await readModelCatalog('openai', {
      env: {OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: `${server.url}/v1`},
    });
    assert.deepEqual(catalog, {complete: true, models: new Set(['gpt-5'])});
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer sk-o');
  } finally {
    await server.close();
  }
});

test('without an API key, or for a provider without a catalog, there is none', async () => {
  assert.equal(await readModelCatalog('anthropic', {env: {}}), undefined);
  assert.equal(await readModelCatalog('google', {env: {GOOGLE_API_KEY: 'x'}}), undefined);
});

test('invalid, refused, failing and unreachable catalogs are coded errors', async () => {
  const code = (expected: string) => (error: unknown) => isStratosError(error) && error.code === expected;
  await withCatalog({kind: 'invalid'}, (url) =>
    assert.rejects(
      readModelCatalog('anthropic', {env: anthropicEnv(url)}),
      code('STRATOS_AGENT_CATALOG_INVALID'),
    ),
  );
  await withCatalog({kind: 'denied'}, (url) =>
    assert.rejects(
      readModelCatalog('anthropic', {env: anthropicEnv(url)}),
      code('STRATOS_AGENT_CATALOG_DENIED'),
    ),
  );
  await withCatalog({kind: 'error'}, (url) =>
    assert.rejects(
      readModelCatalog('anthropic', {env: anthropicEnv(url)}),
      code('STRATOS_AGENT_CATALOG_UNREACHABLE'),
    ),
  );
  const closed = await startCatalogServer({kind: 'complete', models: []});
  await closed.close();
  await assert.rejects(
    readModelCatalog('openai', {env: {OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${closed.url}/v1`}}),
    (error) =>
      code('STRATOS_AGENT_CATALOG_UNREACHABLE')(error) && !String((error as Error).message).includes('k@'),
  );
});
