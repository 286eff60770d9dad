// OpenCode on a local Ollama model end to end: the shared harness matrix (harness-matrix.ts) and the Ollama cases
// (ollama-agent-cases.ts) with the real opencode binary against the scripted Ollama server, which answers
// OpenCode's `/v1/chat/completions` with the scripted chat completions handler. Hosted endpoints and proxies point
// at a recording server; the user config names hosted main and small models, which must never be used.
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {wrapModelServer} from '../../helpers/matrix-server.ts';
import {parseChatTurn} from '../../servers/models/openai-chat.ts';
import {plantOpenCodeProjectConfig} from '../../servers/models/project-config.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';
import {createOllamaHarnessHome, type OtherHosts, startOtherHosts} from '../../servers/ollama/other-hosts.ts';
import {defineHarnessMatrix, type HarnessDriver} from './harness-matrix.ts';
import {toChatReply, toMatrixTurn} from './matrix-opencode.ts';
import {defineOllamaAgentCases, ollamaModels} from './ollama-agent-cases.ts';

let ollama: OllamaServer;
let other: OtherHosts;

const driver: HarnessDriver = {
  harness: 'opencode',
  provider: 'ollama',
  label: 'opencode+ollama',
  apiKeyVariable: 'OPENAI_API_KEY',
  skip: {
    'without an API key or login, an AuthenticationError comes before any request':
      'Ollama agents use no credentials; the Ollama cases run one without any key',
  },
  async startServer(script) {
    other = await startOtherHosts();
    ollama = await startOllamaServer({
      models: ollamaModels,
      chatCompletions: (turn) => toChatReply(script(toMatrixTurn(turn)), turn),
    });
    return wrapModelServer(
      ollama,
      () => ollama.modelRequests().map((r) => toMatrixTurn(parseChatTurn(r.body))),
      async () => {
        await ollama.close();
        await other.close();
      },
    );
  },
  createHome: (server) => createOllamaHarnessHome(server.url, other),
  plantProjectConfig: plantOpenCodeProjectConfig,
  async plantUserConfig(home) {
    const user = {
      model: 'anthropic/claude-never',
      small_model: 'anthropic/claude-never-small',
      mcp: {usermcp: {type: 'local', command: ['node', '-e', ''], enabled: true}},
    };
    await mkdir(join(home.env.XDG_CONFIG_HOME!, 'opencode'), {recursive: true});
    await writeFile(join(home.env.XDG_CONFIG_HOME!, 'opencode', 'opencode.json'), JSON.stringify(user));
    await mkdir(join(home.env.HOME!, '.config', 'opencode'), {recursive: true});
    await writeFile(join(home.env.HOME!, '.config', 'opencode', 'opencode.json'), JSON.stringify(user));
    await plantInstalledPluginPackage(join(home.env.XDG_CONFIG_HOME!, 'opencode'));
  },
};

/**
 * OpenCode installs its plugin package (`@opencode-ai/plugin`) into its configuration folder from the npm registry
 * whenever that folder has no `node_modules` or its lock file lacks the package: a one-time setup of OpenCode's
 * own, unrelated to the model. A user's folder has it after OpenCode's first start; this one is made that way, so
 * the recording server for other hosts can prove that the agent itself sends nothing anywhere else.
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

const matrix = defineHarnessMatrix(driver);
defineOllamaAgentCases(matrix, {harness: 'opencode', ollama: () => ollama, other: () => other});
