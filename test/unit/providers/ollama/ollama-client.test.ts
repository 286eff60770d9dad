// The shared Ollama client against the local Ollama API server: endpoint resolution (baseUrl, OLLAMA_HOST,
// default; invalid values fail without a fallback), version, installed models, capabilities and advertised
// context, error statuses and unreachable servers, and the server's streaming chat as the official package reads it.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {Ollama} from 'ollama/browser';
import {isStratosError} from '../../../../src/errors/index.ts';
import {
  createOllamaClient,
  requireModelCapabilities,
  resolveOllamaEndpoint,
} from '../../../../src/providers/ollama/index.ts';
import {type OllamaServer, startOllamaServer} from '../../../servers/ollama/index.ts';

let server: OllamaServer;

before(async () => {
  server = await startOllamaServer({
    version: '0.40.12',
    models: [
      {
        name: 'qwen3:8b',
        capabilities: ['completion', 'tools', 'thinking'],
        contextLength: 40960,
        family: 'qwen3',
      },
      {name: 'nimble:latest', capabilities: ['decision']},
    ],
    chat: (record) =>
      record.body.messages?.[0]?.content === 'fail'
        ? {status: 503, contentType: 'text/plain', error: 'busy'}
        : {answer: {ok: true}},
  });
});

after(() => server.close());

test('endpoint: explicit baseUrl, then OLLAMA_HOST as Ollama reads it, then localhost; invalid ones fail', () => {
  assert.deepEqual(resolveOllamaEndpoint({baseUrl: 'http://10.0.0.2:8080/', env: {OLLAMA_HOST: 'other:1'}}), {
    url: 'http://10.0.0.2:8080',
    source: 'baseUrl',
  });
  assert.equal(resolveOllamaEndpoint({env: {OLLAMA_HOST: '127.0.0.1'}}).url, 'http://127.0.0.1:11434');
  assert.equal(resolveOllamaEndpoint({env: {OLLAMA_HOST: 'gpu-box:9000'}}).url, 'http://gpu-box:9000');
  assert.equal(
    resolveOllamaEndpoint({env: {OLLAMA_HOST: 'https://ollama.internal'}}).url,
    'https://ollama.internal',
  );
  assert.deepEqual(resolveOllamaEndpoint({env: {}}), {url: 'http://127.0.0.1:11434', source: 'default'});
  for (const bad of [
    {baseUrl: 'localhost:11434'},
    {env: {OLLAMA_HOST: 'ftp://host'}},
    {baseUrl: 'http://user:pw@host'},
  ]) {
    assert.throws(
      () => resolveOllamaEndpoint(bad),
      (error: unknown) => isStratosError(error) && error.code === 'STRATOS_OLLAMA_ENDPOINT_INVALID',
    );
  }
});

test('version, installed models, capabilities and advertised context length', async () => {
  const client = createOllamaClient({baseUrl: server.url});
  assert.equal(await client.version(), '0.40.12');
  assert.deepEqual(
    (await client.listModels()).map((m) => m.name),
    ['qwen3:8b', 'nimble:latest'],
  );
  assert.deepEqual(await client.showModel('qwen3:8b'), {
    name: 'qwen3:8b',
    capabilities: ['completion', 'tools', 'thinking'],
    contextLength: 40960,
  });
  assert.equal(await client.showModel('absent'), undefined);
  await assert.rejects(
    requireModelCapabilities(client, 'nimble:latest', {allOf: ['completion', 'tools'], purpose: 'an agent'}),
    (error: unknown) =>
      isStratosError(error) &&
      error.code === 'STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING' &&
      /completion and tools/.test(error.message),
  );
  await assert.rejects(
    requireModelCapabilities(client, 'absent', {anyOf: ['completion'], purpose: 'a decision'}),
    (error: unknown) => isStratosError(error) && error.code === 'STRATOS_OLLAMA_MODEL_NOT_INSTALLED',
  );
});

test('error statuses keep their status; an unreachable server is its own code; no console output', async () => {
  const client = createOllamaClient({baseUrl: server.url});
  const logged: unknown[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => logged.push(args);
  try {
    await assert.rejects(
      client.chat({model: 'qwen3:8b', messages: [{role: 'user', content: 'fail'}]}),
      (error: unknown) =>
        isStratosError(error) &&
        error.code === 'STRATOS_OLLAMA_REQUEST_FAILED' &&
        error.details?.status === 503,
    );
  } finally {
    console.log = original;
  }
  assert.deepEqual(logged, [], 'a text error body is read without the package logging');
  const closed = createOllamaClient({baseUrl: 'http://127.0.0.1:9'});
  await assert.rejects(
    closed.version(),
    (error: unknown) =>
      isStratosError(error) &&
      error.code === 'STRATOS_OLLAMA_UNREACHABLE' &&
      /127\.0\.0\.1:9/.test(error.message),
  );
  const controller = new AbortController();
  controller.abort(new Error('stopped'));
  await assert.rejects(client.version(controller.signal), /stopped/);
});

test('the server streams chat as NDJSON with logprobs, as the official package reads it', async () => {
  const ollama = new Ollama({host: server.url});
  const stream = await ollama.chat({
    model: 'qwen3:8b',
    messages: [{role: 'user', content: 'hello'}],
    stream: true,
    logprobs: true,
    top_logprobs: 3,
  });
  let text = '';
  let tokens = 0;
  for await (const part of stream) {
    text += part.message.content;
    tokens += part.logprobs?.length ?? 0;
  }
  assert.equal(text, '{"ok":true}');
  assert.ok(tokens >= 2);
});
