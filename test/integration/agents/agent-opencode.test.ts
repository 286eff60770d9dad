// The OpenCode harness end to end: the shared harness matrix (harness-matrix.ts) plus OpenCode's own cases, with
// the real opencode binary against a scripted OpenAI chat completions server, an isolated home and XDG folders,
// and no outbound traffic.
import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {createServer, type Server} from 'node:net';
import {join} from 'node:path';
import {test} from 'node:test';
import {wrapModelServer} from '../../helpers/matrix-server.ts';
import {createHarnessHome} from '../../servers/models/harness-env.ts';
import {startChatServer} from '../../servers/models/openai-chat.ts';
import {plantOpenCodeProjectConfig} from '../../servers/models/project-config.ts';
import {defineHarnessMatrix, type HarnessDriver} from './harness-matrix.ts';
import {toChatReply, toMatrixTurn} from './matrix-opencode.ts';

const driver: HarnessDriver = {
  harness: 'opencode',
  apiKeyVariable: 'OPENAI_API_KEY',
  async startServer(script) {
    const server = await startChatServer((turn) => toChatReply(script(toMatrixTurn(turn)), turn));
    return wrapModelServer(server, () => server.turns().map(toMatrixTurn));
  },
  createHome: (server) => createHarnessHome({openaiUrl: server.url}, {xdg: true}),
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
  },
};

const matrix = defineHarnessMatrix(driver);

test('opencode: every request, the title request included, uses the selected model', async () => {
  await matrix.run('text');
  const models = new Set(matrix.server.requests.map((r) => (r.body as {model?: string} | undefined)?.model));
  models.delete(undefined);
  assert.deepEqual([...models], ['gpt-test']);
});

test('opencode: a process holding port 4096 does not stop an agent', async () => {
  const holder: Server = createServer();
  const held = await new Promise<boolean>((resolve) => {
    holder.once('error', () => resolve(false));
    holder.listen(4096, '127.0.0.1', () => resolve(true));
  });
  try {
    assert.equal(await matrix.run('text'), 'hello from the scripted model');
  } finally {
    if (held) await new Promise((resolve) => holder.close(resolve));
  }
});
