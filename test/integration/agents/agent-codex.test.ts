// The Codex harness end to end: the shared harness matrix (harness-matrix.ts) plus Codex's own cases, with the
// real codex binary against a scripted OpenAI Responses server, an isolated CODEX_HOME (outside /tmp) and no
// outbound traffic. Tool hooks through the MCP hook bridge in detail: agent-codex-hooks.test.ts.
import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {wrapModelServer} from '../../helpers/matrix-server.ts';
import {createHarnessHome} from '../../servers/models/harness-env.ts';
import {startResponsesServer} from '../../servers/models/openai-responses.ts';
import {plantCodexProjectConfig} from '../../servers/models/project-config.ts';
import {defineHarnessMatrix, type HarnessDriver} from './harness-matrix.ts';
import {toMatrixTurn, toResponsesReply} from './matrix-codex.ts';

const driver: HarnessDriver = {
  harness: 'codex',
  apiKeyVariable: 'OPENAI_API_KEY',
  async startServer(script) {
    const server = await startResponsesServer((turn) => toResponsesReply(script(toMatrixTurn(turn)), turn));
    return wrapModelServer(server, () => server.turns().map(toMatrixTurn));
  },
  createHome: (server) => createHarnessHome({openaiUrl: server.url}),
  plantProjectConfig: plantCodexProjectConfig,
  async plantUserConfig(home) {
    await writeFile(
      join(home.env.CODEX_HOME!, 'config.toml'),
      '[mcp_servers.usermcp]\ncommand = "node"\nargs = ["-e", ""]\n',
    );
  },
};

const matrix = defineHarnessMatrix(driver);

test('codex: the output schema is sent natively as a strict text.format JSON schema', async () => {
  await matrix.run('structured-ok');
  const body = matrix.server.requests
    .map((r) => r.body as {input?: unknown; text?: {format?: {type?: string}}})
    .findLast((b) => JSON.stringify(b?.input ?? '').includes('STRUCT_OK'));
  assert.equal(body?.text?.format?.type, 'json_schema');
});

test('codex: the continued thread after a cancel carries the cancelled prompt', async () => {
  await matrix.run('cancel');
  const last = matrix.server.turns().findLast((t) => t.prompt.includes('TEXT after cancel'));
  assert.ok(last?.transcript.includes('HANG forever'), 'the continued thread carries the cancelled prompt');
});
