// Real inference: node-llama-cpp runs a tiny GGUF with random weights, generated here, behind the Ollama API of
// test/servers/ollama; a workflow's decision goes through the real CLI to it. The output is nonsense, so only its
// shape is asserted: each choice's probabilities are numbers in [0, 1] that sum to 1 within 1e-6.
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';
import {createLlamaChat, type LlamaChat} from '../../servers/ollama/llama-backend.ts';
import {writeTinyGguf} from '../../servers/ollama/tiny-gguf.ts';

let project: TempProject;
let server: OllamaServer;
let llama: LlamaChat;

const workflowSource = `import {choice, decision, noul, score, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({ticket: z.string().describe('The ticket text')}),
  output: z.object({answers: z.string().describe('The answers as JSON')}),
  async run({ticket}) {
    const answers = await decision({
      state: {ticket},
      questions: {
        queue: choice('Which queue handles this ticket?', {bug: 'Software errors', billing: 'Payments', account: 'Sign-in'}),
        urgent: noul('The ticket needs attention today.'),
        severity: score('How severe is it?', ['low', 'medium', 'high']),
      },
      config: 'local',
    });
    return {answers: JSON.stringify(answers)};
  },
});
`;

before(async () => {
  project = await createTempProject('stratos-decision-llama-');
  const modelPath = join(project.home, '..', 'tiny.gguf');
  await writeTinyGguf(modelPath);
  llama = await createLlamaChat(modelPath);
  server = await startOllamaServer({
    models: [{name: 'tiny-random', capabilities: ['completion'], contextLength: 4096, family: 'llama'}],
    chat: (record) => llama.chat(record.body),
  });
  await project.writeWorkflow('local', {
    'workflow.yaml': manifest('local', 'decisions:\n  local:\n    model: tiny-random\n'),
    'workflow.ts': workflowSource,
  });
});

after(async () => {
  await server?.close();
  await llama?.close();
  await project?.remove();
});

test("a choice's probabilities from real token log-probabilities are in [0, 1] and sum to 1", async () => {
  const result = await project.cli(
    ['run', 'local', '--input', '{"ticket":"Checkout fails with 500."}', '--json'],
    {
      env: {OLLAMA_HOST: server.url},
    },
  );
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const answers = JSON.parse(result.json.data.output.answers);
  const probabilities = Object.values(answers.queue.probabilities) as number[];
  assert.equal(probabilities.length, 3);
  for (const p of probabilities) assert.ok(typeof p === 'number' && p >= 0 && p <= 1, String(p));
  assert.ok(Math.abs(probabilities.reduce((sum, p) => sum + p, 0) - 1) < 1e-6, JSON.stringify(answers.queue));
  assert.ok(['bug', 'billing', 'account'].includes(answers.queue.choice));
  assert.ok(answers.urgent.noul >= 0 && answers.urgent.noul <= 1);
  assert.ok(answers.severity.score >= 0 && answers.severity.score <= 2);
  const request = server.requestsTo('/api/chat').at(-1)!.body;
  assert.equal(request.logprobs, true);
  assert.equal(request.model, 'tiny-random');
});
