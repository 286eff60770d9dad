// The cases every Ollama agent harness shares beyond the harness matrix: readiness failures at the first execute
// (a model without tools, a model not installed, an unreachable or invalid endpoint), the effort override, no
// credentials needed, and the proof that no request left for another host and no hosted credential was sent.
// Each Ollama test file calls defineOllamaAgentCases once, after defineHarnessMatrix.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {manifest} from '../../helpers/temp-project.ts';
import type {OllamaServer} from '../../servers/ollama/index.ts';
import {canaryKeys, type OtherHosts} from '../../servers/ollama/other-hosts.ts';
import type {MatrixContext} from './harness-matrix.ts';

/** The models of the scripted Ollama server: the agent's, and one that cannot call tools. */
export const ollamaModels = [
  {
    name: 'qwen3:8b',
    capabilities: ['completion', 'tools', 'thinking'],
    contextLength: 40960,
    family: 'qwen3',
  },
  {name: 'gemma:2b', capabilities: ['completion'], contextLength: 8192, family: 'gemma'},
];

const casesWorkflow = `import {createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    model: z.string().optional().describe('A model in place of the configured one'),
    effort: z.string().optional().describe('An effort override'),
  }),
  output: z.object({result: z.string().describe('The outcome as JSON text')}),
  async run({model, effort}) {
    try {
      const agent = createAgent('local', {
        ...(model === undefined ? {} : {model}),
        ...(effort === undefined ? {} : {effort: effort as never}),
      });
      const value = await agent.execute('TEXT local case');
      return {result: JSON.stringify({ok: true, value, selection: agent.selection})};
    } catch (error) {
      const code = isStratosError(error) ? error.code : 'not-a-stratos-error';
      return {result: JSON.stringify({ok: false, code, message: (error as Error).message})};
    }
  },
});
`;

export function defineOllamaAgentCases(
  matrix: MatrixContext,
  options: {harness: 'codex' | 'opencode'; ollama: () => OllamaServer; other: () => OtherHosts},
): void {
  const label = `${options.harness}+ollama`;
  // biome-ignore lint/suspicious/noExplicitAny: the workflow's result
  const run = async (input: Record<string, string>, env = matrix.home.env): Promise<any> => {
    await build();
    const result = await matrix.project.cli(
      ['run', 'ollama-cases', '--json', '--input', JSON.stringify(input)],
      {
        env,
      },
    );
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    return JSON.parse(result.json.data.output.result);
  };

  // Built at the first case (root-level before hooks start at once, before the matrix's own has made the project).
  let built: Promise<void> | undefined;
  const build = () =>
    (built ??= (async () => {
      await matrix.project.writeWorkflow('ollama-cases', {
        'workflow.yaml': manifest(
          'ollama-cases',
          `agents:\n  local:\n    harness: ${options.harness}\n    provider: ollama\n    model: qwen3:8b\n    allowedMcps: []\n`,
        ),
        'workflow.ts': casesWorkflow,
      });
      const result = await matrix.project.cli(['build', 'ollama-cases', '--json'], {env: matrix.home.env});
      assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    })());

  test(`${label}: no credentials needed; the local model is used as named`, async () => {
    const env = Object.fromEntries(Object.entries(matrix.home.env).filter(([name]) => !(name in canaryKeys)));
    const result = await run({}, env);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.value, 'hello from the scripted model');
    assert.equal(result.selection.provider, 'ollama');
    assert.equal(result.selection.model, 'qwen3:8b');
  });

  test(`${label}: a model without the tools capability fails before any model request`, async () => {
    const ollama = options.ollama();
    const before = ollama.modelRequests().length;
    const result = await run({model: 'gemma:2b'});
    assert.equal(result.code, 'STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING');
    assert.match(result.message, /'gemma:2b' on http:\/\/127\.0\.0\.1:\d+ does not advertise tools/);
    assert.match(result.message, /it lists completion\b/);
    assert.equal(ollama.modelRequests().length, before, 'nothing reached the model');
  });

  test(`${label}: a model that is not installed names the ollama pull the user may run; nothing is pulled`, async () => {
    const ollama = options.ollama();
    const before = ollama.modelRequests().length;
    const result = await run({model: 'absent:1b'});
    assert.equal(result.code, 'STRATOS_OLLAMA_MODEL_NOT_INSTALLED');
    assert.match(result.message, /'absent:1b' is not installed .*run 'ollama pull absent:1b' yourself/);
    assert.equal(ollama.modelRequests().length, before);
    assert.deepEqual(ollama.requestsTo('/api/pull'), []);
  });

  test(`${label}: an unreachable or invalid endpoint fails without trying another`, async () => {
    const ollama = options.ollama();
    const before = ollama.requests.length;
    const unreachable = await run({}, {...matrix.home.env, OLLAMA_HOST: 'http://127.0.0.1:9'});
    assert.equal(unreachable.code, 'STRATOS_OLLAMA_UNREACHABLE');
    assert.match(unreachable.message, /127\.0\.0\.1:9 .*no other endpoint was tried/);
    const invalid = await run({}, {...matrix.home.env, OLLAMA_HOST: 'ftp://127.0.0.1'});
    assert.equal(invalid.code, 'STRATOS_OLLAMA_ENDPOINT_INVALID');
    assert.equal(ollama.requests.length, before, 'the configured server was not tried instead');
    assert.deepEqual(options.other().seen, [], 'no hosted endpoint was tried instead');
  });

  test(`${label}: an effort override is rejected at createAgent, before any request`, async () => {
    const ollama = options.ollama();
    const before = ollama.requests.length;
    const result = await run({effort: 'high'});
    assert.equal(result.code, 'STRATOS_AGENT_EFFORT_UNSUPPORTED');
    assert.match(result.message, /effort 'high' on provider 'ollama'.*Remove effort/);
    assert.equal(ollama.requests.length, before);
  });

  test(`${label}: no request left for another host and no hosted credential was sent`, async () => {
    const ollama = options.ollama();
    assert.ok(ollama.modelRequests().length > 10, 'the matrix ran against the Ollama server');
    assert.deepEqual(options.other().seen, [], 'hosted endpoints and proxies saw nothing');
    const sent = JSON.stringify(ollama.requests.map((r) => [r.headers, r.body]));
    for (const key of Object.values(canaryKeys)) assert.ok(!sent.includes(key), 'no canary key was sent');
    assert.deepEqual(
      ollama.requests.filter(
        (r) => r.headers.authorization !== undefined || r.headers['x-api-key'] !== undefined,
      ),
      [],
    );
    const paths = new Set(ollama.requests.map((r) => r.path));
    const chat = options.harness === 'codex' ? '/v1/responses' : '/v1/chat/completions';
    assert.deepEqual([...paths].sort(), ['/api/show', chat].sort(), 'metadata and the chat endpoint only');
    const models = new Set(ollama.modelRequests().map((r) => (r.body as {model?: string}).model));
    assert.deepEqual([...models], ['qwen3:8b'], 'every model request, side requests included, is local');
  });
}
