// examples/triage through the real CLI against the scripted Ollama server: it routes on the choice, and an
// unclear ticket goes to human-review because the workflow code applies the threshold.
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli} from '../../helpers/run-cli.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
let home: string;
let server: OllamaServer;

before(async () => {
  home = await mkdtemp(join(tmpdir(), 'stratos-example-triage-'));
  server = await startOllamaServer({
    models: [{name: 'qwen3:8b', capabilities: ['completion', 'tools', 'thinking'], contextLength: 40960}],
    chat: (record) => {
      const unclear = record.body.messages[1].content.includes('something is off');
      return {
        answer: {queue: unclear ? 'C' : 'A', urgent: !unclear, severity: unclear ? '0' : '2'},
        candidates: {
          queue: unclear ? {A: 0.3, B: 0.3, C: 0.4} : {A: 0.9, B: 0.05, C: 0.05},
          urgent: {true: unclear ? 0.1 : 0.95, false: unclear ? 0.9 : 0.05},
          severity: {'0': 0.2, '1': 0.3, '2': 0.5},
        },
      };
    },
  });
});

after(async () => {
  await server.close();
  await rm(home, {recursive: true, force: true});
});

const run = (input: unknown) =>
  runCli(['run', './examples/triage', '--input', JSON.stringify(input), '--json'], {
    cwd: repository,
    env: {STRATOS_HOME: home, CI: '1', OLLAMA_HOST: server.url},
  });

test('triage routes a clear ticket to its queue and an unclear one to human-review', async () => {
  const clear = await run({ticket: 'Checkout returns HTTP 500 since this morning.'});
  assert.equal(clear.exitCode, 0, clear.stdout + clear.stderr);
  assert.equal(clear.json.data.output.queue, 'bug');
  assert.ok(Math.abs(clear.json.data.output.probabilities.bug - 0.9) < 1e-9);
  assert.ok(clear.json.data.output.urgent > 0.9);
  const request = server.requestsTo('/api/chat')[0]!.body;
  assert.equal(request.model, 'qwen3:8b');
  assert.equal(request.think, false, 'a thinking model answers without a thinking phase');
  const unclear = await run({ticket: 'something is off with my thing'});
  assert.equal(unclear.exitCode, 0, unclear.stdout + unclear.stderr);
  assert.equal(unclear.json.data.output.queue, 'human-review');
  assert.ok(Math.abs(unclear.json.data.output.severity - 1.3) < 1e-9);
});
