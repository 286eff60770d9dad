// Real inference through an Ollama agent: node-llama-cpp runs a tiny GGUF with random weights, generated here,
// behind the scripted Ollama server's `/v1/responses`; the real codex binary runs the agent of a workflow through
// the real CLI. The text is nonsense, so only its shape is asserted: the agent returns exactly what the model
// generated for the prompt, and the request went to the local model as named, streamed.
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import type {HarnessHome} from '../../servers/models/harness-env.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';
import {createLlamaChat, type LlamaChat} from '../../servers/ollama/llama-backend.ts';
import {createOllamaHarnessHome, type OtherHosts, startOtherHosts} from '../../servers/ollama/other-hosts.ts';
import {writeTinyGguf} from '../../servers/ollama/tiny-gguf.ts';

let project: TempProject;
let server: OllamaServer;
let llama: LlamaChat;
let other: OtherHosts;
let home: HarnessHome;
const generated: string[] = [];

const workflowSource = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({prompt: z.string().describe('The prompt')}),
  output: z.object({text: z.string().describe('What the agent answered')}),
  async run({prompt}) {
    return {text: await createAgent('local').execute(prompt)};
  },
});
`;

before(async () => {
  project = await createTempProject('stratos-agent-ollama-llama-');
  const modelPath = join(project.home, '..', 'tiny.gguf');
  await writeTinyGguf(modelPath);
  llama = await createLlamaChat(modelPath);
  other = await startOtherHosts();
  server = await startOllamaServer({
    models: [
      {name: 'tiny-random', capabilities: ['completion', 'tools'], contextLength: 4096, family: 'llama'},
    ],
    responses: async (turn) => {
      const {raw} = await llama.chat({messages: [{role: 'user', content: turn.userText}]});
      generated.push(raw.content);
      return {text: raw.content};
    },
  });
  home = await createOllamaHarnessHome(server.url, other);
  await project.writeWorkflow('local', {
    'workflow.yaml': manifest(
      'local',
      'agents:\n  local:\n    harness: codex\n    provider: ollama\n    model: tiny-random\n    allowedMcps: []\n',
    ),
    'workflow.ts': workflowSource,
  });
});

after(async () => {
  await server?.close();
  await other?.close();
  await llama?.close();
  await home?.remove();
  await project?.remove();
});

test('a Codex agent on a real local model returns the text the model generated', async () => {
  const result = await project.cli(['run', 'local', '--input', '{"prompt":"Say hello."}', '--json'], {
    env: home.env,
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const text = result.json.data.output.text;
  assert.equal(typeof text, 'string');
  assert.equal(generated.length, 1, 'one model request');
  assert.equal(text, generated[0]);
  const [request] = server.modelRequests();
  assert.equal(request!.body.model, 'tiny-random');
  assert.equal(request!.body.stream, true);
  assert.deepEqual(other.seen, []);
});
