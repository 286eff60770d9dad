// `stratos provider status` for the local Ollama server: endpoint, version, installed models with their advertised
// capabilities and context length (and the note that the loaded context may differ), which models can serve an
// agent, and setup guidance when no server is running or OLLAMA_HOST is invalid. Metadata only.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

let project: TempProject;
let server: OllamaServer;

before(async () => {
  project = await createTempProject('stratos-provider-status-ollama-');
  server = await startOllamaServer({
    version: '0.14.2',
    models: [
      {
        name: 'qwen3:8b',
        capabilities: ['completion', 'tools', 'thinking'],
        contextLength: 40960,
        family: 'qwen3',
      },
      {
        name: 'nomic-embed-text:latest',
        capabilities: ['embedding'],
        contextLength: 2048,
        family: 'nomic-bert',
      },
    ],
  });
});

after(async () => {
  await server.close();
  await project.remove();
});

test('a running server: endpoint, version, models with capabilities and advertised context', async () => {
  const env = {OLLAMA_HOST: server.url.replace('http://', '')};
  const result = await project.cli(['provider', 'status', '--json'], {env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const ollama = result.json.data.ollama;
  assert.equal(ollama.endpoint, server.url);
  assert.equal(ollama.source, 'OLLAMA_HOST');
  assert.equal(ollama.reachable, true);
  assert.equal(ollama.version, '0.14.2');
  assert.deepEqual(
    ollama.models.map((m: Record<string, unknown>) => [
      m.name,
      m.capabilities,
      m.contextLength,
      m.agentReady,
    ]),
    [
      ['qwen3:8b', ['completion', 'tools', 'thinking'], 40960, true],
      ['nomic-embed-text:latest', ['embedding'], 2048, false],
    ],
  );
  assert.match(ollama.contextNote, /actually loads .* may be smaller/);
  assert.equal(ollama.guidance, undefined);
  assert.deepEqual(
    [...new Set(server.requests.map((r) => r.path))].sort(),
    ['/api/show', '/api/tags', '/api/version'],
    'metadata only',
  );
  const readable = await project.cli(['provider', 'status'], {env});
  assert.match(
    readable.stdout,
    new RegExp(`ollama ${server.url} \\(OLLAMA_HOST\\)  running, version 0\\.14\\.2`),
  );
  assert.match(
    readable.stdout,
    /qwen3:8b: completion, tools, thinking, context 40960 advertised \(agent-ready\)/,
  );
  assert.match(
    readable.stdout,
    /nomic-embed-text:latest: embedding, context 2048 advertised \(not for agents\)/,
  );
  assert.match(readable.stdout, /may be smaller/);
});

test('no server running: setup guidance, nothing installed or pulled', async () => {
  const result = await project.cli(['provider', 'status', '--json'], {
    env: {OLLAMA_HOST: 'http://127.0.0.1:9'},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const ollama = result.json.data.ollama;
  assert.equal(ollama.reachable, false);
  assert.equal(ollama.error.code, 'STRATOS_OLLAMA_UNREACHABLE');
  assert.match(
    ollama.guidance,
    /install Ollama yourself .*'ollama serve'.*never installs Ollama or downloads models/,
  );
  const readable = await project.cli(['provider', 'status'], {env: {OLLAMA_HOST: 'http://127.0.0.1:9'}});
  assert.match(readable.stdout, /ollama http:\/\/127\.0\.0\.1:9 \(OLLAMA_HOST\) {2}not running/);
});

test('an invalid OLLAMA_HOST is reported with what to set', async () => {
  const result = await project.cli(['provider', 'status', '--json'], {env: {OLLAMA_HOST: 'ftp://127.0.0.1'}});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.data.ollama.error.code, 'STRATOS_OLLAMA_ENDPOINT_INVALID');
  assert.match(result.json.data.ollama.guidance, /Set OLLAMA_HOST/);
});

test('a server without an agent-ready model says what an agent needs', async () => {
  const bare = await startOllamaServer({models: [{name: 'gemma:2b', capabilities: ['completion']}]});
  try {
    const result = await project.cli(['provider', 'status', '--json'], {env: {OLLAMA_HOST: bare.url}});
    assert.match(result.json.data.ollama.guidance, /No installed model advertises both completion and tools/);
  } finally {
    await bare.close();
  }
});
