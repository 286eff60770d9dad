// Codex on a local Ollama model end to end: the shared harness matrix (harness-matrix.ts) and the Ollama cases
// (ollama-agent-cases.ts) with the real codex binary against the scripted Ollama server, which answers Codex's
// `/v1/responses` with the scripted Responses handler. Hosted endpoints and proxies point at a recording server.
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {wrapModelServer} from '../../helpers/matrix-server.ts';
import {parseResponsesTurn} from '../../servers/models/openai-responses.ts';
import {plantCodexProjectConfig} from '../../servers/models/project-config.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';
import {createOllamaHarnessHome, type OtherHosts, startOtherHosts} from '../../servers/ollama/other-hosts.ts';
import {defineHarnessMatrix, type HarnessDriver} from './harness-matrix.ts';
import {toMatrixTurn, toResponsesReply} from './matrix-codex.ts';
import {defineOllamaAgentCases, ollamaModels} from './ollama-agent-cases.ts';

let ollama: OllamaServer;
let other: OtherHosts;

const driver: HarnessDriver = {
  harness: 'codex',
  provider: 'ollama',
  label: 'codex+ollama',
  apiKeyVariable: 'OPENAI_API_KEY',
  skip: {
    'without an API key or login, an AuthenticationError comes before any request':
      'Ollama agents use no credentials; the Ollama cases run one without any key',
  },
  async startServer(script) {
    other = await startOtherHosts();
    ollama = await startOllamaServer({
      models: ollamaModels,
      responses: (turn) => toResponsesReply(script(toMatrixTurn(turn)), turn),
    });
    return wrapModelServer(
      ollama,
      () => ollama.modelRequests().map((r) => toMatrixTurn(parseResponsesTurn(r.body))),
      async () => {
        await ollama.close();
        await other.close();
      },
    );
  },
  createHome: (server) => createOllamaHarnessHome(server.url, other),
  plantProjectConfig: plantCodexProjectConfig,
  async plantUserConfig(home) {
    await writeFile(
      join(home.env.CODEX_HOME!, 'config.toml'),
      '[mcp_servers.usermcp]\ncommand = "node"\nargs = ["-e", ""]\n',
    );
  },
};

const matrix = defineHarnessMatrix(driver);
defineOllamaAgentCases(matrix, {harness: 'codex', ollama: () => ollama, other: () => other});
