// The ACP harness on a real ACP agent: OpenCode's `opencode acp` (the opencode-ai dependency), driven through the
// shared harness matrix (harness-matrix.ts) against the scripted OpenAI chat completions server, with an isolated
// home and XDG folders and no outbound traffic. The agent's whole configuration is the `env` of its settings: the
// model on the scripted server through OPENCODE_CONFIG_CONTENT, and OpenCode's update, sharing, plug-in, project
// configuration and Claude Code compatibility switches off. This is the configuration docs/agents.md shows.
import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {createHarnessHome} from '../../servers/models/harness-env.ts';
import {startChatServer} from '../../servers/models/openai-chat.ts';
import {plantOpenCodeProjectConfig} from '../../servers/models/project-config.ts';
import {defineHarnessMatrix, type HarnessDriver} from './harness-matrix.ts';
import {toChatReply, toMatrixTurn} from './matrix-opencode.ts';

const opencode = new URL('../../../node_modules/.bin/opencode', import.meta.url).pathname;

/** OpenCode's configuration: every model request to the scripted server; MCP tool calls ask permission. */
const openCodeConfig = {
  autoupdate: false,
  share: 'disabled',
  plugin: [],
  model: 'scripted/gpt-test',
  small_model: 'scripted/gpt-test',
  provider: {
    scripted: {
      npm: '@ai-sdk/openai-compatible',
      name: 'Scripted',
      options: {baseURL: '{env:OPENAI_BASE_URL}', apiKey: '{env:OPENAI_API_KEY}'},
      models: {'gpt-test': {name: 'gpt-test', tool_call: true}},
    },
  },
  tools: {question: false},
  permission: {'counter_*': 'ask', 'slowcounter_*': 'ask'},
};

const agentSettings = `
    command: ${JSON.stringify(opencode)}
    args: [acp]
    env:
      OPENCODE_CONFIG_CONTENT: ${JSON.stringify(JSON.stringify(openCodeConfig))}
      OPENCODE_DISABLE_AUTOUPDATE: '1'
      OPENCODE_DISABLE_MODELS_FETCH: '1'
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1'
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1'
      OPENCODE_DISABLE_SHARE: '1'
      OPENCODE_DISABLE_CLAUDE_CODE: '1'
      OPENCODE_DISABLE_PROJECT_CONFIG: '1'`;

const unsupported = 'The Agent Client Protocol has no way to';
const driver: HarnessDriver = {
  harness: 'acp',
  label: 'acp (opencode acp)',
  agentSettings,
  // `opencode acp` takes about 30 s to start on the loaded test machine, and one scenario starts three agents.
  runTimeoutMs: 300_000,
  apiKeyVariable: 'OPENAI_API_KEY',
  async startServer(script) {
    const server = await startChatServer((turn) => toChatReply(script(toMatrixTurn(turn)), turn));
    return {
      url: server.url,
      requests: server.requests,
      modelRequests: () => server.modelRequests(),
      get abortedStreams() {
        return server.abortedStreams;
      },
      turns: () => server.turns().map(toMatrixTurn),
      close: () => server.close(),
    };
  },
  createHome: (server) => createHarnessHome({openaiUrl: server.url}, {xdg: true}),
  plantProjectConfig: plantOpenCodeProjectConfig,
  async plantUserConfig(home) {
    const user = {mcp: {usermcp: {type: 'local', command: ['node', '-e', ''], enabled: true}}};
    await mkdir(join(home.env.XDG_CONFIG_HOME!, 'opencode'), {recursive: true});
    await writeFile(join(home.env.XDG_CONFIG_HOME!, 'opencode', 'opencode.json'), JSON.stringify(user));
    await plantInstalledPluginPackage(join(home.env.XDG_CONFIG_HOME!, 'opencode'));
  },
  skip: {
    'a second execute continues the conversation with its system prompt':
      'ACP has no system prompt: Stratos opens the first prompt with it, so the model never sees a system message (agent-acp.test.ts checks the first prompt and the continued session).',
    'a selected MCP server that cannot start fails with STRATOS_MCP_CONNECT_FAILED':
      'ACP reports no MCP server status: OpenCode goes on without a server that did not start.',
    'a failed start is retried on the same agent object once the cause is gone':
      'ACP reports no MCP server status, so the scenario has no failed start to retry.',
    'structured output: a valid result is returned, an invalid one is an error':
      "The scripted server answers OpenCode's native structured-output tool, which ACP does not offer; the strict JSON reply is checked in agent-acp.test.ts.",
    'a before-tool hook denies with feedback: the model sees it, the tool never runs':
      "ACP's rejection carries no feedback for the model, and OpenCode ends the turn when a permission is rejected; agent-acp.test.ts checks the refusal.",
    'a before-tool hook modifies the arguments the MCP server receives': `${unsupported} change a tool call's input (STRATOS_AGENT_HOOK_UNSUPPORTED).`,
    'an after-tool hook withholds the result: the model sees the feedback only': `${unsupported} take back a tool result (STRATOS_AGENT_HOOK_UNSUPPORTED).`,
    'without an API key or login, an AuthenticationError comes before any request':
      'An ACP agent signs in its own way; Stratos has no credentials of its own to check.',
    'user-level MCP configuration of the harness is never loaded':
      "OpenCode reads its user configuration in ACP mode too; only the agent's env can point it elsewhere (docs/agents.md).",
  },
};

const matrix = defineHarnessMatrix(driver);

/**
 * OpenCode installs its plugin package into its configuration folder from the npm registry when the folder lacks it
 * (agent-ollama-opencode.test.ts says more): planted as OpenCode leaves it, so nothing leaves the machine.
 */
async function plantInstalledPluginPackage(folder: string): Promise<void> {
  await mkdir(join(folder, 'node_modules'), {recursive: true});
  const dependencies = {'@opencode-ai/plugin': '1.18.33'};
  await writeFile(join(folder, 'package.json'), JSON.stringify({dependencies}));
  await writeFile(
    join(folder, 'package-lock.json'),
    JSON.stringify({lockfileVersion: 3, packages: {'': {dependencies}}}),
  );
}

test('acp (opencode acp): the prompt reaches the model as written; Stratos adds no text to a turn', async () => {
  assert.equal(await matrix.run('text'), 'hello from the scripted model');
  const prompts = matrix.server
    .turns()
    .filter((turn) => turn.main)
    .map((turn) => turn.prompt);
  assert.ok(prompts.includes('TEXT say hello'), JSON.stringify(prompts));
});
