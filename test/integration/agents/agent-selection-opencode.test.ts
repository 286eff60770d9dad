// Selection's second pass with the real opencode binary against a scripted OpenAI chat completions server: the
// preferences fall through Claude Code and Codex (no authentication for either) to OpenCode, and OpenCode's own
// structured rejection (`APIError` 404 with the provider's `model_not_found` code) moves to the next prepared
// candidate, while a 404 without that code (only a message saying so) does not. Each case asserts which harness
// and model ran and how many native sessions were started.
import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ChatServer, startChatServer} from '../../servers/models/openai-chat.ts';

let chat: ChatServer;
let project: TempProject;
let home: HarnessHome;

const workflowTs = `import {createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    agent: z.string().describe('Agent configuration name'),
    prompt: z.string().describe('The prompt'),
  }),
  output: z.object({
    text: z.string().describe('The answer, or empty'),
    error: z.string().describe('Failure code, or empty'),
    message: z.string().describe('Failure message, or empty'),
    selection: z.string().describe('The agent selection as JSON'),
  }),
  async run({agent, prompt}) {
    const chosen = createAgent(agent);
    let text = '';
    let error = '';
    let message = '';
    try {
      text = await chosen.execute(prompt);
    } catch (failure) {
      error = isStratosError(failure) ? failure.code : String(failure);
      message = failure instanceof Error ? failure.message : String(failure);
    }
    return {text, error, message, selection: JSON.stringify(chosen.selection ?? null)};
  },
});
`;

const agents = `agents:
  falls-through:
    models: [anthropic/claude-sonnet-4-5, openai/gpt-5]
  on-opencode:
    harness: opencode
    models: [openai/gpt-5, openai/gpt-5-mini]
`;

before(async () => {
  chat = await startChatServer(
    (turn) => {
      if (turn.model === 'gpt-5' && turn.transcript.includes('REJECT'))
        return {
          status: 404,
          error: 'The model `gpt-5` does not exist.',
          code: 'model_not_found',
          retryAfterMs: 10,
        };
      // A 404 whose body only says so in words: no structured evidence.
      if (turn.transcript.includes('UNCODED'))
        return {status: 404, error: 'model not found', type: 'invalid_request_error', retryAfterMs: 10};
      return {text: `opencode ${turn.model} says ${turn.userText}`};
    },
    {models: ['gpt-5', 'gpt-5-mini']},
  );
  home = await createHarnessHome({openaiUrl: chat.url}, {xdg: true});
  project = await createTempProject('stratos-agent-selection-opencode-');
  await project.writeWorkflow('selection', {
    'workflow.yaml': manifest('selection', agents),
    'workflow.ts': workflowTs,
  });
  const build = await project.cli(['build', 'selection', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a harness or MCP process outlived its run');
});

after(async () => {
  await chat?.close();
  await project?.remove();
  await home?.remove();
});

interface Outcome {
  text: string;
  error: string;
  message: string;
  selection: {
    harness: string;
    provider?: string;
    model?: string;
    identity?: string;
    skipped: {harness: string; model: string; reason: string; detail: string}[];
    sessionsStarted: number;
  } | null;
  /** The models named in the chat requests of this run, in order. */
  models: string[];
}

async function run(agent: string, prompt: string, env: Record<string, string> = {}): Promise<Outcome> {
  const before = chat.turns().length;
  const input = JSON.stringify({agent, prompt});
  const result = await project.cli(['run', 'selection', '--json', '--input', input], {
    env: {...home.env, ...env},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const output = result.json.data.output;
  return {
    text: output.text,
    error: output.error,
    message: output.message,
    selection: JSON.parse(output.selection),
    models: chat
      .turns()
      .slice(before)
      .map((turn) => turn.model),
  };
}

test('preferences fall through Claude Code and Codex (no authentication) to the OpenCode pass', async () => {
  // OpenCode's own login holds an OpenAI key; there is no Anthropic key, no OpenAI key and no Codex login.
  await mkdir(join(home.env.XDG_DATA_HOME!, 'opencode'), {recursive: true});
  await writeFile(
    join(home.env.XDG_DATA_HOME!, 'opencode', 'auth.json'),
    JSON.stringify({openai: {type: 'api', key: 'sk-opencode-login'}}),
  );
  const outcome = await run('falls-through', 'hello', {ANTHROPIC_API_KEY: '', OPENAI_API_KEY: ''});
  assert.equal(outcome.error, '', outcome.message);
  assert.equal(outcome.text, 'opencode gpt-5 says hello');
  assert.equal(outcome.selection?.harness, 'opencode');
  assert.equal(outcome.selection?.model, 'openai/gpt-5');
  assert.equal(outcome.selection?.identity, 'openai/gpt-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(
    outcome.selection?.skipped.map((s) => [s.harness, s.model, s.reason]),
    [
      ['claude-code', 'claude-sonnet-4-5', 'authentication-missing'],
      ['codex', 'gpt-5', 'authentication-missing'],
      // An OpenAI login is no Anthropic authentication for OpenCode.
      ['opencode', 'anthropic/claude-sonnet-4-5', 'authentication-missing'],
    ],
  );
  assert.ok(outcome.models.length >= 1);
  assert.deepEqual([...new Set(outcome.models)], ['gpt-5']);
});

test("OpenCode's structured model rejection moves to the next prepared candidate, once", async () => {
  const outcome = await run('on-opencode', 'REJECT this model');
  assert.equal(outcome.error, '', outcome.message);
  assert.equal(outcome.text, 'opencode gpt-5-mini says REJECT this model');
  assert.equal(outcome.selection?.harness, 'opencode');
  assert.equal(outcome.selection?.model, 'openai/gpt-5-mini');
  assert.equal(outcome.selection?.sessionsStarted, 2);
  assert.deepEqual(
    outcome.selection?.skipped.map((s) => [s.harness, s.model, s.reason]),
    [['opencode', 'openai/gpt-5', 'model-rejected']],
  );
  assert.match(outcome.selection!.skipped[0]!.detail, /model_not_found, HTTP 404/);
  assert.equal(outcome.models[0], 'gpt-5');
  assert.ok(outcome.models.includes('gpt-5-mini'));
});

test('a 404 that only says "model not found" in words is no evidence: no other model is tried', async () => {
  const outcome = await run('on-opencode', 'UNCODED please');
  assert.equal(outcome.error, 'STRATOS_AGENT_RUN_FAILED', JSON.stringify(outcome));
  assert.equal(outcome.selection?.harness, 'opencode');
  assert.equal(outcome.selection?.model, 'openai/gpt-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(outcome.selection?.skipped, []);
  assert.deepEqual([...new Set(outcome.models)], ['gpt-5']);
});
