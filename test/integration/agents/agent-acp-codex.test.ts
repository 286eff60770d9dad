// The ACP harness on a second real ACP agent: Zed's Codex adapter `codex-acp` (the @zed-industries/codex-acp
// dependency, a Rust binary built on Codex's own crates), driven through the shared harness matrix
// (harness-matrix.ts) against the scripted OpenAI Responses server, with no outbound traffic. The agent's whole
// configuration is its settings: `-c` overrides name the model and a Responses provider at the scripted server
// whose key is OPENAI_API_KEY, and `env` gives it a CODEX_HOME of its own, so the user's Codex configuration
// (`config.toml` in the CODEX_HOME it would otherwise read) stays out. This is the configuration docs/agents.md shows.
// Beside the matrix: Codex's plan tool (`update_plan`) arrives as ACP plan updates, recorded as agent.plan events.
import assert from 'node:assert/strict';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {wrapModelServer} from '../../helpers/matrix-server.ts';
import {manifest} from '../../helpers/temp-project.ts';
import {acpWorkflowSource} from '../../servers/acp/workflow-source.ts';
import {createHarnessHome} from '../../servers/models/harness-env.ts';
import {
  type ResponsesReply,
  type ResponsesTurn,
  startResponsesServer,
} from '../../servers/models/openai-responses.ts';
import {plantCodexProjectConfig} from '../../servers/models/project-config.ts';
import {defineHarnessMatrix, type HarnessDriver} from './harness-matrix.ts';
import {toMatrixTurn, toResponsesReply} from './matrix-codex.ts';

const codexAcp = new URL('../../../node_modules/.bin/codex-acp', import.meta.url).pathname;

/** Set once the server and the home exist; the scenario manifest is written after both. */
const placed = {serverUrl: '', codexHome: ''};

/**
 * The agent's settings. A model in Codex's catalog: for a model it has no metadata for, Codex warns, and codex-acp
 * forwards the warning as reply text.
 */
function codexAcpSettings(): string {
  const provider = `model_providers.scripted={name="Scripted", base_url="${placed.serverUrl}/v1", env_key="OPENAI_API_KEY", wire_api="responses"}`;
  const args = ['-c', 'model="gpt-5.4-mini"', '-c', 'model_provider="scripted"', '-c', provider];
  return `
    command: ${JSON.stringify(codexAcp)}
    args: ${JSON.stringify(args)}
    env:
      CODEX_HOME: ${JSON.stringify(placed.codexHome)}`;
}

/** Codex's own plan tool, called once per prompt: codex-acp reports the plan as an ACP `plan` update. */
function planReply(turn: ResponsesTurn): ResponsesReply {
  if (turn.toolResults.length > 0) return {text: 'planned'};
  const plan = [
    {step: 'Read the code', status: 'completed'},
    {step: 'Write the test', status: 'in_progress'},
  ];
  return {toolCall: {name: 'update_plan', arguments: {plan}}};
}

const unsupported = 'The Agent Client Protocol has no way to';
const driver: HarnessDriver = {
  harness: 'acp',
  label: 'acp (codex-acp)',
  get agentSettings() {
    return codexAcpSettings();
  },
  // One scenario starts four agents on the loaded test machine.
  runTimeoutMs: 300_000,
  apiKeyVariable: 'OPENAI_API_KEY',
  async startServer(script) {
    const server = await startResponsesServer((turn) =>
      turn.userText.includes('PLAN') ? planReply(turn) : toResponsesReply(script(toMatrixTurn(turn)), turn),
    );
    placed.serverUrl = server.url;
    return wrapModelServer(server, () => server.turns().map(toMatrixTurn));
  },
  async createHome(server) {
    const home = await createHarnessHome({openaiUrl: server.url});
    // Outside /tmp: Codex refuses to place its helper binaries under a temporary folder.
    placed.codexHome = join(home.base, 'codex-acp-home');
    await mkdir(placed.codexHome, {recursive: true});
    return home;
  },
  plantProjectConfig: plantCodexProjectConfig,
  async plantUserConfig(home) {
    // The Codex home the agent would read without a CODEX_HOME of its own.
    await writeFile(
      join(home.env.CODEX_HOME!, 'config.toml'),
      '[mcp_servers.usermcp]\ncommand = "node"\nargs = ["-e", ""]\n',
    );
  },
  skip: {
    'a selected MCP server that cannot start fails with STRATOS_MCP_CONNECT_FAILED':
      'ACP reports no MCP server status: codex-acp goes on without a session server that did not start.',
    'a failed start is retried on the same agent object once the cause is gone':
      'ACP reports no MCP server status, so the scenario has no failed start to retry.',
    'a before-tool hook denies with feedback: the model sees it, the tool never runs':
      "codex-acp asks before an MCP call as 'Approve <tool>', with no server or tool name the hook's call.mcp could carry, and its refusal (a cancelled approval) passes no feedback to the model; agent-acp.test.ts checks the refusal.",
    'a before-tool hook modifies the arguments the MCP server receives': `${unsupported} change a tool call's input (STRATOS_AGENT_HOOK_UNSUPPORTED).`,
    'an after-tool hook withholds the result: the model sees the feedback only': `${unsupported} take back a tool result (STRATOS_AGENT_HOOK_UNSUPPORTED).`,
    'without an API key or login, an AuthenticationError comes before any request':
      'An ACP agent signs in its own way; Stratos has no credentials of its own to check.',
  },
};

const matrix = defineHarnessMatrix(driver);

test('acp (codex-acp): the prompt reaches the model as written; Stratos adds no text to a turn', async () => {
  assert.equal(await matrix.run('text'), 'hello from the scripted model');
  const prompts = matrix.server
    .turns()
    .filter((turn) => turn.main)
    .map((turn) => turn.prompt);
  assert.ok(prompts.includes('TEXT say hello'), JSON.stringify(prompts));
});

test("acp (codex-acp): Codex's plan reaches the agent span as agent.plan events", async () => {
  const {project, home} = matrix;
  const yaml = `agents:\n  planner:\n    harness: acp${codexAcpSettings()}\n    allowedMcps: []\n`;
  await project.writeWorkflow('codex-plan', {
    'workflow.yaml': manifest('codex-plan', yaml),
    'workflow.ts': acpWorkflowSource,
  });
  const input = {
    agent: 'planner',
    prompts: ['PLAN the work'],
    hook: 'none',
    structured: false,
    cancelOnTool: '',
  };
  const result = await project.cli(['run', 'codex-plan', '--json', '--input', JSON.stringify(input)], {
    env: home.env,
    timeoutMs: 300_000,
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const output = result.json.data.output as {replies: unknown[]; events: string[]; error: unknown};
  assert.equal(output.error, null);
  assert.deepEqual(output.replies, ['planned']);
  assert.ok(output.events.includes('plan'), output.events.join());
  const records = (await readFile(join(result.json.data.runDirectory, 'events.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const plans = records.filter((record) => record.name === 'agent.plan');
  assert.ok(plans.length > 0, 'an agent.plan event was recorded');
  assert.deepEqual(plans.at(-1).attributes, {
    'stratos.plan.entries': ['Read the code', 'Write the test'],
    'stratos.plan.statuses': ['completed', 'in_progress'],
    'stratos.plan.priorities': ['medium', 'medium'],
  });
});
