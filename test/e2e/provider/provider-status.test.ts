// `stratos provider status` against scripted provider catalogs: installation, authentication and catalog status
// per harness, with no secret in any output.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {type CatalogServer, startCatalogServer} from '../../servers/catalogs/index.ts';

let project: TempProject;
let anthropic: CatalogServer;
let openai: CatalogServer;
const anthropicKey = 'sk-ant-CANARY-provider-status-1';
const openaiKey = 'sk-openai-CANARY-provider-status-2';

before(async () => {
  project = await createTempProject('stratos-provider-status-');
  anthropic = await startCatalogServer({kind: 'complete', models: ['claude-sonnet-4-5', 'claude-opus-4-1']});
  openai = await startCatalogServer({kind: 'denied'});
});

after(async () => {
  await anthropic.close();
  await openai.close();
  await project.remove();
});

test('keys configured: catalogs read, a refused one reported with its code, no key printed', async () => {
  const env = {
    ANTHROPIC_API_KEY: anthropicKey,
    ANTHROPIC_BASE_URL: anthropic.url,
    OPENAI_API_KEY: openaiKey,
    OPENAI_BASE_URL: `${openai.url}/v1`,
  };
  const result = await project.cli(['provider', 'status', '--json'], {env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const byHarness = Object.fromEntries(
    result.json.data.harnesses.map((h: {harness: string}) => [h.harness, h]),
  );
  assert.equal(byHarness['claude-code'].installed, true);
  assert.deepEqual(byHarness['claude-code'].authentication, {configured: true});
  assert.deepEqual(byHarness['claude-code'].providers, [
    {provider: 'anthropic', catalog: {status: 'reachable', complete: true, modelCount: 2}},
  ]);
  assert.equal(byHarness.codex.providers[0].catalog.status, 'error');
  assert.equal(byHarness.codex.providers[0].catalog.error.code, 'STRATOS_AGENT_CATALOG_DENIED');
  assert.match(result.json.data.modelCatalogRevision, /models\.dev [0-9a-f]{40}/);
  assert.equal(result.json.message, '4 of 4 harnesses ready');
  // Codex's explicit Azure provider has its own setup, and no catalog Stratos reads.
  assert.equal(byHarness.codex.providers[1].provider, 'azure');
  assert.equal(byHarness.codex.providers[1].authentication.configured, false);
  assert.match(byHarness.codex.providers[1].authentication.guidance, /AZURE_OPENAI_API_KEY/);
  assert.deepEqual(byHarness.codex.providers[1].catalog, {status: 'none'});
  // OpenCode serves each model through the provider its identity names, each with its own key.
  assert.deepEqual(
    byHarness.opencode.providers.map(
      (p: {provider: string; authentication: unknown; catalog: {status: string}}) => [
        p.provider,
        p.authentication,
        p.catalog.status,
      ],
    ),
    [
      ['anthropic', {configured: true}, 'reachable'],
      ['openai', {configured: true}, 'error'],
    ],
  );
  const readable = await project.cli(['provider', 'status'], {env});
  for (const output of [result.stdout, result.stderr, readable.stdout, readable.stderr]) {
    assert.ok(!output.includes(anthropicKey) && !output.includes(openaiKey), 'no key in any output');
  }
  assert.match(readable.stdout, /anthropic catalog: 2 models/);
  assert.match(readable.stdout, /azure authentication: not configured/);
  assert.equal(anthropic.requests[0]!.headers['x-api-key'], anthropicKey);
});

test('nothing configured: authentication missing with guidance, no catalog, nothing contacted', async () => {
  const before = anthropic.requests.length;
  const blank = {
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_AUTH_TOKEN: '',
    CLAUDE_CODE_OAUTH_TOKEN: '',
    OPENAI_API_KEY: '',
    CODEX_API_KEY: '',
  };
  const result = await project.cli(['provider', 'status', '--json'], {env: blank});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  for (const harness of result.json.data.harnesses) {
    // An ACP agent signs in its own way: the harness has no credentials of its own to miss.
    if (harness.harness === 'acp') {
      assert.equal(harness.authentication.configured, true);
      assert.deepEqual(harness.providers, []);
      continue;
    }
    assert.equal(harness.authentication.configured, false, harness.harness);
    assert.match(harness.authentication.guidance, /API_KEY/);
    assert.deepEqual(
      harness.providers.map((p: {catalog: {status: string}}) => p.catalog.status),
      harness.harness === 'claude-code' ? ['none'] : ['none', 'none'],
    );
    if (harness.harness === 'opencode') {
      for (const provider of harness.providers) {
        assert.equal(provider.authentication.configured, false, provider.provider);
        assert.match(provider.authentication.guidance, /API_KEY.*opencode auth login/);
      }
    }
  }
  assert.equal(result.json.message, '1 of 4 harnesses ready');
  assert.equal(anthropic.requests.length, before);
});
