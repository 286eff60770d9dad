// The Codex harness end to end: the shared harness matrix (harness-matrix.ts) plus Codex's own cases, with the
// real codex binary against a scripted OpenAI Responses server, an isolated CODEX_HOME (outside /tmp) and no
// outbound traffic. Tool hooks through the MCP hook bridge in detail: agent-codex-hooks.test.ts.
import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {createHarnessHome} from '../servers/models/harness-env.ts';
import {
  mcpToolCall,
  type ResponsesReply,
  type ResponsesTurn,
  startResponsesServer,
} from '../servers/models/openai-responses.ts';
import {
  defineHarnessMatrix,
  type HarnessDriver,
  type MatrixReply,
  type MatrixTurn,
} from './harness-matrix.ts';

function toMatrixTurn(turn: ResponsesTurn): MatrixTurn {
  return {
    prompt: turn.userText,
    transcript: turn.transcript,
    // Codex sends developer instructions as input messages.
    system: `${turn.instructions}\n${turn.transcript}`,
    toolNames: turn.toolNames,
    // Codex's output string carries no error flag; the model sees the text.
    toolResults: turn.toolResults.map((r) => ({
      tool: toolOfCall(turn, r.callId),
      output: r.output,
      isError: false,
    })),
    main: true,
  };
}

/** The `mcp__<server>__<tool>` name of the function call a result answers. */
function toolOfCall(turn: ResponsesTurn, callId: string): string {
  const input: {type?: string; call_id?: string; name?: string; namespace?: string}[] = turn.body.input ?? [];
  const call = input.find((item) => item.type === 'function_call' && item.call_id === callId);
  if (call === undefined) return '';
  return call.namespace === undefined ? String(call.name) : `${call.namespace}__${call.name}`;
}

function toResponsesReply(reply: MatrixReply, turn: ResponsesTurn): ResponsesReply {
  if ('callMcp' in reply)
    return mcpToolCall(turn, reply.callMcp.server, reply.callMcp.tool, reply.callMcp.args);
  if ('structured' in reply) return {text: JSON.stringify(reply.structured)};
  // Codex's strict text.format makes the model answer JSON; a wrong type is what an invalid result looks like.
  if ('structuredInvalid' in reply) return {text: JSON.stringify({answer: 42})};
  if ('slow' in reply) return {text: reply.slow, pauseMs: 1000};
  return reply;
}

const driver: HarnessDriver = {
  harness: 'codex',
  apiKeyVariable: 'OPENAI_API_KEY',
  async startServer(script) {
    const server = await startResponsesServer((turn) => toResponsesReply(script(toMatrixTurn(turn)), turn));
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
  createHome: (server) => createHarnessHome({openaiUrl: server.url}),
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
