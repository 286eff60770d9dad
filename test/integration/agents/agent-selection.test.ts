// Choosing a harness and model deliberately, with the real claude and codex binaries against scripted model
// servers that also serve model catalogs: readiness skips (authentication, complete catalog), the one allowed
// fallback (a structured model rejection before any work), every forbidden one (rate limit, server error,
// rejection after output, after a tool call, a rejection whose session could not be cleaned up), partial and
// failing catalogs, and the Codex Azure provider. Each case asserts which harness and model ran and how many
// native sessions were started. OpenCode's part (the second pass, its rejection) is agent-selection-opencode.
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type CatalogServer, startCatalogServer} from '../../servers/catalogs/index.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ResponsesServer, startResponsesServer} from '../../servers/models/openai-responses.ts';

let anthropic: AnthropicServer;
let openai: ResponsesServer;
let azure: ResponsesServer;
let brokenCatalog: CatalogServer;
let failingCatalog: CatalogServer;
let deniedCatalog: CatalogServer;
/** An Anthropic server whose catalog is partial: it lists claude-sonnet-4-5 and says there is more. */
let partialAnthropic: AnthropicServer;
/** The address of a catalog server that was closed: nothing listens there. */
let closedUrl: string;
let project: TempProject;
let home: HarnessHome;
const leakFile = () => join(home.base, 'leaked-pids');

const workflowTs = `import {createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    agent: z.string().describe('Agent configuration name'),
    prompts: z.array(z.string()).describe('Prompts, in order'),
  }),
  output: z.object({
    texts: z.array(z.string()).describe('Answers'),
    error: z.string().describe('Failure code, or empty'),
    message: z.string().describe('Failure message, or empty'),
    selection: z.string().describe('The agent selection as JSON'),
  }),
  async run({agent, prompts}) {
    const chosen = createAgent(agent);
    const texts: string[] = [];
    let error = '';
    let message = '';
    try {
      for (const prompt of prompts) texts.push(await chosen.execute(prompt));
    } catch (failure) {
      error = isStratosError(failure) ? failure.code : String(failure);
      message = failure instanceof Error ? failure.message : String(failure);
    }
    return {texts, error, message, selection: JSON.stringify(chosen.selection ?? null)};
  },
});
`;

const agents = (leakFile: string) => `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
    leaky:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(LEAKY_SCRIPT)}]
      env:
        STRATOS_TEST_LEAK_FILE: ${JSON.stringify(leakFile)}
agents:
  prefer-claude:
    models: [anthropic/claude-sonnet-4-5, openai/gpt-5]
    allowedMcps: [counter]
  prefer-codex:
    models: [openai/gpt-5, anthropic/claude-sonnet-4-5]
    allowedMcps: []
  leaves-a-process:
    models: [anthropic/claude-sonnet-4-5, openai/gpt-5]
    allowedMcps: [leaky]
  catalog-miss:
    models: [anthropic/claude-haiku-4-5, openai/gpt-5]
    allowedMcps: []
  on-azure:
    harness: codex
    provider: azure
    model: gpt-5-deployment
    allowedMcps: []
`;
const LEAKY_SCRIPT = fileURLToPath(new URL('../../servers/selection/leaky-mcp-server.ts', import.meta.url));

before(async () => {
  anthropic = await startAnthropicServer(
    (turn) => {
      if (!isMainTurn(turn)) return {text: 'side'};
      const prompt = turn.lastText;
      // Claude Code adds its own reminders after a tool result: look at the whole conversation.
      if (turn.transcript.includes('TOOL-THEN-REJECT')) {
        if (resultOf(turn, 'mcp__counter__echo') !== undefined)
          return {status: 404, errorType: 'not_found_error', error: `model: ${turn.body.model}`};
        return toolCall(turn, 'mcp__counter__echo', {text: 'hi'});
      }
      if (prompt.includes('REJECT'))
        return {status: 404, errorType: 'not_found_error', error: `model: ${turn.body.model}`};
      if (prompt.includes('RATE')) return {status: 429, errorType: 'rate_limit_error', error: 'slow down'};
      if (prompt.includes('BOOM')) return {status: 500, errorType: 'api_error', error: 'boom'};
      return {text: `claude says ${prompt}`};
    },
    {models: ['claude-sonnet-4-5', 'claude-opus-4-1']},
  );
  openai = await startResponsesServer(
    (turn) =>
      turn.userText.includes('CODEX-MISSING')
        ? {status: 404, error: 'The model `gpt-5` does not exist or you do not have access to it.'}
        : {text: `codex says ${turn.userText}`},
    {models: ['gpt-5']},
  );
  azure = await startResponsesServer((turn) => ({text: `azure says ${turn.userText}`}));
  brokenCatalog = await startCatalogServer({kind: 'invalid'});
  failingCatalog = await startCatalogServer({kind: 'error'});
  deniedCatalog = await startCatalogServer({kind: 'denied'});
  partialAnthropic = await startAnthropicServer(
    (turn) => ({text: isMainTurn(turn) ? `partial claude ${turn.body.model} says ${turn.lastText}` : 'side'}),
    {models: ['claude-sonnet-4-5'], partial: true},
  );
  const closed = await startCatalogServer({kind: 'complete', models: []});
  closedUrl = closed.url;
  await closed.close();
  home = await createHarnessHome({anthropicUrl: anthropic.url, openaiUrl: openai.url});
  project = await createTempProject('stratos-agent-selection-');
  await project.writeWorkflow('selection', {
    'workflow.yaml': manifest('selection', agents(leakFile())),
    'workflow.ts': workflowTs,
  });
  const build = await project.cli(['build', 'selection', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a harness or MCP process outlived its run');
});

after(async () => {
  if (home !== undefined) await killLeaked();
  await anthropic?.close();
  await openai?.close();
  await azure?.close();
  await brokenCatalog?.close();
  await failingCatalog?.close();
  await deniedCatalog?.close();
  await partialAnthropic?.close();
  await project?.remove();
  await home?.remove();
});

interface Outcome {
  texts: string[];
  error: string;
  message: string;
  selection: {
    harness: string;
    provider?: string;
    model?: string;
    identity?: string;
    skipped: {harness: string; reason: string; detail: string}[];
    sessionsStarted: number;
  } | null;
  runDirectory: string;
  /** Main model requests each server received during this run. */
  requests: {anthropic: number; openai: number; azure: number};
}

async function run(agent: string, prompts: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const before = {
    anthropic: anthropic.turns().filter(isMainTurn).length,
    openai: openai.modelRequests().length,
    azure: azure.modelRequests().length,
  };
  const input = JSON.stringify({agent, prompts});
  // No retries inside Claude Code: a rate limit or server error ends the turn at once.
  const result = await project.cli(['run', 'selection', '--json', '--input', input], {
    env: {...home.env, CLAUDE_CODE_MAX_RETRIES: '0', ...env},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const output = result.json.data.output;
  return {
    texts: output.texts,
    error: output.error,
    message: output.message,
    selection: JSON.parse(output.selection),
    runDirectory: result.json.data.runDirectory,
    requests: {
      anthropic: anthropic.turns().filter(isMainTurn).length - before.anthropic,
      openai: openai.modelRequests().length - before.openai,
      azure: azure.modelRequests().length - before.azure,
    },
  };
}

/** The attributes of the run's `stratos.agent.selection` events. */
async function selectionEvents(runDirectory: string): Promise<Record<string, unknown>[]> {
  const lines = (await readFile(join(runDirectory, 'events.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .map((line) => JSON.parse(line))
    .filter((r) => r.type === 'event' && r.name === 'stratos.agent.selection')
    .map((r) => r.attributes ?? {});
}

async function eventNames(runDirectory: string): Promise<string[]> {
  const lines = (await readFile(join(runDirectory, 'events.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .map((line) => JSON.parse(line))
    .filter((r) => r.type === 'event')
    .map((r) => r.name);
}

test('a structured model rejection before any work moves to the next prepared candidate, once', async () => {
  const outcome = await run('prefer-claude', ['REJECT this model']);
  assert.equal(outcome.error, '');
  assert.deepEqual(outcome.texts, ['codex says REJECT this model']);
  assert.equal(outcome.selection?.harness, 'codex');
  assert.equal(outcome.selection?.model, 'gpt-5');
  assert.equal(outcome.selection?.identity, 'openai/gpt-5');
  assert.equal(outcome.selection?.sessionsStarted, 2);
  assert.deepEqual(
    outcome.selection?.skipped.map((s) => [s.harness, s.reason]),
    [['claude-code', 'model-rejected']],
  );
  assert.match(outcome.selection!.skipped[0]!.detail, /model_not_found, HTTP 404/);
  // Claude Code may ask once more on its own before it reports the rejection; Codex got the prompt once.
  assert.ok(outcome.requests.anthropic >= 1);
  assert.equal(outcome.requests.openai, 1);
  const events = await eventNames(outcome.runDirectory);
  assert.ok(events.includes('stratos.agent.fallback'), events.join(', '));
  assert.equal(events.filter((name) => name === 'stratos.agent.selection').length, 2);
});

test('the preferred candidate is used when it is ready, and its model is the mapped native id', async () => {
  const outcome = await run('prefer-claude', ['hello']);
  assert.deepEqual(outcome.texts, ['claude says hello']);
  assert.equal(outcome.selection?.harness, 'claude-code');
  assert.equal(outcome.selection?.model, 'claude-sonnet-4-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(outcome.selection?.skipped, []);
  const [request] = anthropic.turns().filter(isMainTurn).slice(-1);
  assert.equal(request!.body.model, 'claude-sonnet-4-5');
});

for (const [label, prompt] of [
  ['a rate limit', 'RATE please'],
  ['a server error', 'BOOM please'],
] as const) {
  test(`${label} never switches models: the execute fails on the first candidate`, async () => {
    const outcome = await run('prefer-claude', [prompt]);
    assert.equal(outcome.error, 'STRATOS_AGENT_RUN_FAILED');
    assert.equal(outcome.selection?.harness, 'claude-code');
    assert.equal(outcome.selection?.model, 'claude-sonnet-4-5');
    assert.equal(outcome.selection?.sessionsStarted, 1);
    assert.deepEqual(outcome.selection?.skipped, []);
    assert.deepEqual(outcome.requests, {anthropic: 1, openai: 0, azure: 0});
  });
}

test('a rejection after output (an established conversation) fails; nothing is replayed elsewhere', async () => {
  const outcome = await run('prefer-claude', ['hello', 'REJECT now']);
  assert.deepEqual(outcome.texts, ['claude says hello']);
  assert.equal(outcome.error, 'STRATOS_AGENT_RUN_FAILED');
  assert.equal(outcome.selection?.harness, 'claude-code');
  assert.equal(outcome.selection?.model, 'claude-sonnet-4-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(outcome.selection?.skipped, []);
  assert.equal(outcome.requests.openai, 0);
});

test('a rejection after a tool call fails; the tool work is not repeated on another model', async () => {
  const outcome = await run('prefer-claude', ['TOOL-THEN-REJECT']);
  assert.equal(outcome.error, 'STRATOS_AGENT_RUN_FAILED', JSON.stringify(outcome));
  assert.equal(outcome.selection?.harness, 'claude-code');
  assert.equal(outcome.selection?.model, 'claude-sonnet-4-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(outcome.selection?.skipped, []);
  assert.equal(outcome.requests.openai, 0);
  const last = anthropic.turns().filter(isMainTurn).at(-1)!;
  assert.notEqual(resultOf(last, 'mcp__counter__echo'), undefined, 'the tool ran before the rejection');
});

test('a Codex rejection is only a message text, no evidence: no other model is tried', async () => {
  const outcome = await run('prefer-codex', ['CODEX-MISSING please']);
  assert.equal(outcome.error, 'STRATOS_AGENT_RUN_FAILED', JSON.stringify(outcome));
  assert.equal(outcome.selection?.harness, 'codex');
  assert.equal(outcome.selection?.model, 'gpt-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(outcome.selection?.skipped, []);
  assert.ok(outcome.requests.openai >= 1);
  assert.equal(outcome.requests.anthropic, 0, 'Claude Code was never asked');
});

test('readiness: missing authentication skips a candidate without starting it', async () => {
  const outcome = await run('prefer-claude', ['hello'], {ANTHROPIC_API_KEY: ''});
  assert.deepEqual(outcome.texts, ['codex says hello']);
  assert.equal(outcome.selection?.harness, 'codex');
  assert.equal(outcome.selection?.model, 'gpt-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(
    outcome.selection?.skipped.map((s) => [s.harness, s.reason]),
    // OpenCode's OpenAI key is no Anthropic authentication either.
    [
      ['claude-code', 'authentication-missing'],
      ['opencode', 'authentication-missing'],
    ],
  );
  assert.deepEqual(outcome.requests, {anthropic: 0, openai: 1, azure: 0});
});

test('readiness: a complete catalog without the model excludes it', async () => {
  const outcome = await run('catalog-miss', ['hello']);
  assert.deepEqual(outcome.texts, ['codex says hello']);
  assert.equal(outcome.selection?.harness, 'codex');
  assert.equal(outcome.selection?.model, 'gpt-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(
    outcome.selection?.skipped.map((s) => [s.harness, s.reason]),
    // The model is excluded on each harness that would serve it from the same catalog.
    [
      ['claude-code', 'model-unavailable'],
      ['opencode', 'model-unavailable'],
    ],
  );
  assert.match(outcome.selection!.skipped[0]!.detail, /does not list 'claude-haiku-4-5'/);
  assert.equal(outcome.requests.anthropic, 0);
});

test('an invalid catalog is an error, never an empty list that justifies another choice', async () => {
  const outcome = await run('prefer-claude', ['hello'], {ANTHROPIC_BASE_URL: brokenCatalog.url});
  assert.equal(outcome.error, 'STRATOS_AGENT_CATALOG_INVALID');
  assert.equal(outcome.selection, null, 'no session was started');
  assert.deepEqual(outcome.requests, {anthropic: 0, openai: 0, azure: 0});
});

test('a partial catalog without the model leaves it unknown: still a candidate, and it runs', async () => {
  const before = partialAnthropic.turns().filter(isMainTurn).length;
  const outcome = await run('catalog-miss', ['hello'], {ANTHROPIC_BASE_URL: partialAnthropic.url});
  assert.equal(outcome.error, '', outcome.message);
  assert.deepEqual(outcome.texts, ['partial claude claude-haiku-4-5 says hello']);
  assert.equal(outcome.selection?.harness, 'claude-code');
  assert.equal(outcome.selection?.model, 'claude-haiku-4-5');
  assert.equal(outcome.selection?.sessionsStarted, 1);
  assert.deepEqual(outcome.selection?.skipped, []);
  assert.equal(partialAnthropic.turns().filter(isMainTurn).length - before, 1);
  assert.equal(outcome.requests.openai, 0);
  const selection = await selectionEvents(outcome.runDirectory);
  assert.deepEqual(
    selection.map((e) => e['stratos.agent.catalog']),
    ['unknown'],
  );
});

for (const [label, code, url] of [
  ['an unreachable catalog (HTTP 500)', 'STRATOS_AGENT_CATALOG_UNREACHABLE', () => failingCatalog.url],
  ['a catalog refusing the key (HTTP 401)', 'STRATOS_AGENT_CATALOG_DENIED', () => deniedCatalog.url],
  ['a catalog nobody listens on', 'STRATOS_AGENT_CATALOG_UNREACHABLE', () => closedUrl],
] as const) {
  test(`${label} is an error: no other model is chosen instead`, async () => {
    const outcome = await run('prefer-claude', ['hello'], {ANTHROPIC_BASE_URL: url()});
    assert.equal(outcome.error, code, outcome.message);
    assert.match(outcome.message, /no other model was chosen instead/);
    assert.equal(outcome.selection, null, 'no session was started');
    assert.deepEqual(outcome.requests, {anthropic: 0, openai: 0, azure: 0});
  });
}

test('the Codex Azure provider: the Responses API at the Azure base URL with the Azure key', async () => {
  const outcome = await run('on-azure', ['hello'], {
    AZURE_OPENAI_API_KEY: 'azure-key-test',
    AZURE_OPENAI_BASE_URL: `${azure.url}/v1`,
  });
  assert.equal(outcome.error, '', outcome.message);
  assert.deepEqual(outcome.texts, ['azure says hello']);
  assert.equal(outcome.selection?.provider, 'azure');
  assert.equal(outcome.selection?.model, 'gpt-5-deployment');
  assert.equal(azure.modelRequests().slice(-1)[0]!.body.model, 'gpt-5-deployment');
  assert.deepEqual(outcome.requests, {anthropic: 0, openai: 0, azure: 1});
  const [request] = azure.modelRequests().slice(-1);
  assert.equal(request!.headers.authorization, 'Bearer azure-key-test');
});

test('a failing Azure setup never uses the OpenAI key that is present', async () => {
  const outcome = await run('on-azure', ['hello'], {AZURE_OPENAI_BASE_URL: `${azure.url}/v1`});
  assert.equal(outcome.error, 'STRATOS_AUTH_REQUIRED');
  assert.equal(outcome.selection, null, 'no Codex session was started');
  assert.deepEqual(outcome.requests, {anthropic: 0, openai: 0, azure: 0});
});

test('a rejection whose session could not be cleaned up fails: no other model is tried', async () => {
  const before = (await readLeaked()).length;
  const outcome = await run('leaves-a-process', ['REJECT this model']);
  try {
    assert.equal(outcome.error, 'STRATOS_AGENT_RUN_FAILED', JSON.stringify(outcome));
    assert.match(outcome.message, /was not cleaned up: a process it started is still running/);
    assert.match(outcome.message, /no other model is tried/);
    assert.deepEqual(outcome.texts, []);
    assert.equal(outcome.selection?.harness, 'claude-code');
    assert.equal(outcome.selection?.model, 'claude-sonnet-4-5');
    assert.equal(outcome.selection?.sessionsStarted, 1);
    assert.deepEqual(outcome.selection?.skipped, []);
    assert.ok(outcome.requests.anthropic >= 1);
    assert.equal(outcome.requests.openai, 0, 'Codex was never asked');
    assert.ok((await readLeaked()).length > before, 'the session started the leaky MCP server');
  } finally {
    await killLeaked();
  }
});

async function readLeaked(): Promise<number[]> {
  const text = await readFile(leakFile(), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

/** The processes the leaky MCP server left (during the build's tool listing too). */
async function killLeaked(): Promise<void> {
  for (const pid of await readLeaked()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}
