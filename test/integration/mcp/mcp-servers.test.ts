/**
 * Proves the MCP test servers in test/servers/mcp work: every server over stdio and Streamable HTTP in
 * each protocol mode, connected with the SDK v2 client using `versionNegotiation: {mode: 'auto'}`.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createInterface} from 'node:readline';
import {after, describe, test} from 'node:test';
import type {CallToolResult, Tool} from '@modelcontextprotocol/client';
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {waitFor} from '../../helpers/wait-for.ts';
import {
  AGENTSTACK_DESCRIPTION,
  AGENTSTACK_INPUT_SCHEMA,
  AGENTSTACK_OUTPUT_SCHEMA,
} from '../../servers/mcp/agentstack-spec.ts';
import {
  MODERN_PROTOCOL_VERSION,
  type RecordedCall,
  SERVE_SCRIPT,
  type ServerMode,
  startMcpHttpServer,
} from '../../servers/mcp/index.ts';

const LEGACY_VERSION = '2025-11-25';
const MODES: ServerMode[] = ['modern', 'legacy', 'both'];
const workDir = mkdtempSync(join(tmpdir(), 'stratos-mcp-servers-'));
after(() => rmSync(workDir, {recursive: true, force: true}));

let fileCounter = 0;
function tempFile(name: string): string {
  fileCounter += 1;
  return join(workDir, `${fileCounter}-${name}`);
}

type Era = 'modern' | 'legacy';

/** A live connection plus a way to see the calls the server recorded. */
interface Connection {
  client: Client;
  era: Era;
  calls(): RecordedCall[];
  close(): Promise<void>;
}

interface Target {
  transport: 'stdio' | 'http';
  mode: ServerMode;
}

interface ConnectOptions {
  schemaFile?: string;
  toolCount?: number;
  clientMode?: 'auto' | 'legacy';
  legacyProtocolVersions?: string[];
}

function newClient(clientMode: 'auto' | 'legacy' = 'auto'): Client {
  return new Client({name: 'stratos-test', version: '0.0.0'}, {versionNegotiation: {mode: clientMode}});
}

function readCallLog(file: string): RecordedCall[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  // Last line per call wins (start, then finish).
  const bySeq = new Map<number, RecordedCall>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const {event: _event, ...call} = JSON.parse(line) as RecordedCall & {event: string};
    bySeq.set(call.seq, call);
  }
  return [...bySeq.values()];
}

async function connect(server: string, target: Target, options: ConnectOptions = {}): Promise<Connection> {
  const client = newClient(options.clientMode);
  if (target.transport === 'http') {
    const http = await startMcpHttpServer(server, {
      mode: target.mode,
      settings: {
        ...(options.schemaFile ? {schemaFile: options.schemaFile} : {}),
        ...(options.toolCount === undefined ? {} : {toolCount: options.toolCount}),
      },
      ...(options.legacyProtocolVersions ? {legacyProtocolVersions: options.legacyProtocolVersions} : {}),
    });
    assert.match(http.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)), {timeout: 30_000});
    } catch (error) {
      await http.close();
      throw error;
    }
    return {
      client,
      era: client.getProtocolEra() as Era,
      calls: () => http.calls,
      close: async () => {
        await client.close();
        await http.close();
      },
    };
  }
  const log = tempFile(`${server}-calls.jsonl`);
  const env: Record<string, string> = {PATH: process.env.PATH ?? '', STRATOS_TEST_CALL_LOG: log};
  if (options.schemaFile) env.STRATOS_TEST_SCHEMA_FILE = options.schemaFile;
  if (options.toolCount !== undefined) env.STRATOS_TEST_TOOL_COUNT = String(options.toolCount);
  const args = [SERVE_SCRIPT, server, '--stdio', '--mode', target.mode];
  if (options.legacyProtocolVersions)
    args.push('--protocol-versions', options.legacyProtocolVersions.join(','));
  const transport = new StdioClientTransport({command: process.execPath, args, env, stderr: 'ignore'});
  try {
    await client.connect(transport, {timeout: 30_000});
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  }
  return {
    client,
    era: client.getProtocolEra() as Era,
    calls: () => readCallLog(log),
    close: () => client.close(),
  };
}

async function withConnection(
  server: string,
  target: Target,
  options: ConnectOptions,
  body: (connection: Connection) => Promise<void>,
): Promise<void> {
  const connection = await connect(server, target, options);
  try {
    await body(connection);
  } finally {
    await connection.close();
  }
}

function expectedVersion(mode: ServerMode): string {
  return mode === 'legacy' ? LEGACY_VERSION : MODERN_PROTOCOL_VERSION;
}

function assertNegotiated(connection: Connection, mode: ServerMode): void {
  const version = connection.client.getNegotiatedProtocolVersion();
  assert.equal(version, expectedVersion(mode), `negotiated protocol version for mode ${mode}`);
  assert.equal(connection.era, mode === 'legacy' ? 'legacy' : 'modern');
}

function byName(tools: Tool[]): Map<string, Tool> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

function textOf(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === 'text');
  assert.ok(block && block.type === 'text', 'expected a text content block');
  return block.text;
}

/** On 2025-era connections the SDK's codec projects non-object output values/schemas as {result: value}. */
function legacyWrapped(connection: Connection, value: unknown): unknown {
  return connection.era === 'legacy' ? {result: value} : value;
}

function finishedCall(connection: Connection, tool: string, status: RecordedCall['status']): RecordedCall {
  const call = connection.calls().find((candidate) => candidate.tool === tool && candidate.status === status);
  assert.ok(call, `expected a ${status} call of ${tool}; got ${JSON.stringify(connection.calls())}`);
  return call;
}

// -------------------------------------------------------------------------------------------------------
// Per-server scenarios, run for every transport × mode
// -------------------------------------------------------------------------------------------------------

const scenarios: Record<string, (target: Target) => Promise<void>> = {
  agentstack: (target) =>
    withConnection('agentstack', target, {}, async (connection) => {
      assertNegotiated(connection, target.mode);
      const {tools} = await connection.client.listTools();
      assert.equal(tools.length, 1);
      const tool = tools[0]!;
      assert.equal(tool.name, 'agentstack.execute');
      assert.equal(tool.description, AGENTSTACK_DESCRIPTION);
      assert.deepEqual(tool.inputSchema, AGENTSTACK_INPUT_SCHEMA);
      assert.deepEqual(tool.outputSchema, AGENTSTACK_OUTPUT_SCHEMA);

      const steps = [
        {id: 's1', action: 'auth.get_profile'},
        {id: 's2', action: 'agents.work_next', params: {limit: 1}},
      ];
      const result = await connection.client.callTool({
        name: 'agentstack.execute',
        arguments: {steps, context: {project_id: 7}},
      });
      assert.notEqual(result.isError, true);
      const structured = result.structuredContent as {
        success: boolean;
        data: {steps: unknown[]};
        trace_id: string;
      };
      assert.equal(structured.success, true);
      assert.match(structured.trace_id, /^trace-/);
      assert.deepEqual(structured.data.steps, [
        {id: 's1', action: 'auth.get_profile', ok: true, echo: {}},
        {id: 's2', action: 'agents.work_next', ok: true, echo: {limit: 1}},
      ]);
      assert.deepEqual(JSON.parse(textOf(result)), structured);

      // Invalid input (missing required steps) is a tool-level error, and is not recorded as a call.
      const invalid = await connection.client.callTool({name: 'agentstack.execute', arguments: {}});
      assert.equal(invalid.isError, true);

      const call = finishedCall(connection, 'agentstack.execute', 'ok');
      assert.deepEqual(call.arguments, {steps, context: {project_id: 7}});
      assert.equal(call.transport, target.transport);
      assert.equal(call.protocolVersion, expectedVersion(target.mode));
      assert.equal(connection.calls().length, 1);
    }),

  escapes: (target) =>
    withConnection('escapes', target, {}, async (connection) => {
      assertNegotiated(connection, target.mode);
      const tools = byName((await connection.client.listTools()).tools);
      const names = ['get-me', 'dotted.name', 'price$', 'café', '🚀launch', 'plain_name'];
      assert.deepEqual([...tools.keys()].sort(), [...names].sort());
      assert.equal(tools.get('plain_name')?.outputSchema, undefined);
      const args: Record<string, Record<string, unknown>> = {
        'get-me': {login: 'octocat'},
        'dotted.name': {value: 'x'},
        price$: {amount: 9.5, currency: 'EUR'},
        café: {sugar: true},
        '🚀launch': {target: 'moon'},
        plain_name: {n: 3},
      };
      for (const name of names) {
        const result = await connection.client.callTool({name, arguments: args[name]!});
        assert.notEqual(result.isError, true, name);
        const echoed = name === 'plain_name' ? JSON.parse(textOf(result)) : result.structuredContent;
        assert.deepEqual(echoed, {tool: name, echo: args[name]}, name);
      }
      assert.deepEqual(
        connection
          .calls()
          .map((call) => call.tool)
          .sort(),
        [...names].sort(),
      );
    }),

  schemas: (target) =>
    withConnection('schemas', target, {}, async (connection) => {
      assertNegotiated(connection, target.mode);
      const {client} = connection;
      const tools = byName((await client.listTools()).tools);
      const legacy = connection.era === 'legacy';
      const wrapSchema = (schema: object): object =>
        legacy ? {type: 'object', properties: {result: schema}, required: ['result']} : schema;
      assert.deepEqual(
        tools.get('array_out')?.outputSchema,
        wrapSchema({type: 'array', items: {type: 'string'}}),
      );
      assert.deepEqual(tools.get('number_out')?.outputSchema, wrapSchema({type: 'number'}));
      assert.deepEqual(tools.get('null_out')?.outputSchema, wrapSchema({type: 'null'}));
      assert.deepEqual(tools.get('empty_out')?.outputSchema, wrapSchema({}));
      assert.deepEqual(tools.get('object_out')?.outputSchema, {
        type: 'object',
        properties: {name: {type: 'string'}},
        required: ['name'],
      });
      assert.equal(tools.get('no_schema')?.outputSchema, undefined);

      const call = (name: string, args: Record<string, unknown> = {}) =>
        client.callTool({name, arguments: args});
      assert.deepEqual(
        (await call('array_out')).structuredContent,
        legacyWrapped(connection, ['alpha', 'beta', 'gamma']),
      );
      assert.deepEqual((await call('number_out')).structuredContent, legacyWrapped(connection, 42.5));
      assert.deepEqual((await call('null_out')).structuredContent, legacyWrapped(connection, null));
      assert.deepEqual(
        (await call('empty_out')).structuredContent,
        legacyWrapped(connection, {anything: ['goes', 1, true]}),
      );
      assert.deepEqual((await call('object_out', {name: 'gear'})).structuredContent, {name: 'gear'});
      const plain = await call('no_schema');
      assert.equal(plain.structuredContent, undefined);
      assert.equal(textOf(plain), 'plain text result');

      const failed = await call('is_error');
      assert.equal(failed.isError, true);
      assert.match(textOf(failed), /failed on purpose/);

      // The client validates structured output against the listed schema.
      await assert.rejects(call('bad_structured'), /does not match the tool's output schema/);
      await assert.rejects(call('missing_structured'), /did not return structured content/);

      const slow = await call('slow', {ms: 60});
      const {waitedMs, startedAt, endedAt} = slow.structuredContent as Record<string, number>;
      assert.equal(waitedMs, 60);
      assert.ok(endedAt! - startedAt! >= 50, 'it answered after (about) the time it was asked to wait');

      // hang: a client-side timeout cancels it, and the server observes the abort.
      const started = Date.now();
      await assert.rejects(client.callTool({name: 'hang', arguments: {}}, {timeout: 250}), /timed out/i);
      assert.ok(Date.now() - started < 20_000, 'the client-side timeout ended the call');
      const cancelled = await waitFor(
        () => connection.calls().find((c) => c.tool === 'hang' && c.status === 'cancelled'),
        {timeoutMs: 15_000, intervalMs: 20, what: 'hang cancellation'},
      );
      assert.ok(cancelled.finishedAt !== undefined);

      // ...and so does an explicit AbortSignal.
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('stop hanging')), 150);
      await assert.rejects(client.callTool({name: 'hang', arguments: {}}, {signal: controller.signal}));
      await waitFor(
        () => connection.calls().filter((c) => c.tool === 'hang' && c.status === 'cancelled').length === 2,
        {timeoutMs: 15_000, intervalMs: 20, what: 'second hang cancellation'},
      );
      finishedCall(connection, 'bad_structured', 'ok');
      finishedCall(connection, 'is_error', 'tool-error');

      // The connection is still usable after cancellations.
      assert.deepEqual((await call('object_out')).structuredContent, {name: 'widget'});
    }),

  changing: async (target) => {
    const schemaFile = tempFile('variant.json');
    writeFileSync(schemaFile, JSON.stringify({variant: 'a'}));
    await withConnection('changing', target, {schemaFile}, async (connection) => {
      assertNegotiated(connection, target.mode);
      const first = byName((await connection.client.listTools()).tools).get('lookup');
      assert.deepEqual(first?.inputSchema, {
        type: 'object',
        properties: {id: {type: 'string', description: 'Record id.'}},
        required: ['id'],
        additionalProperties: false,
      });
      const a = await connection.client.callTool({name: 'lookup', arguments: {id: 'x1'}});
      assert.deepEqual(a.structuredContent, {name: 'record-x1'});

      // Switch the schema without restarting anything; the same connection sees it on the next listing.
      writeFileSync(schemaFile, JSON.stringify({variant: 'b'}));
      const second = byName((await connection.client.listTools()).tools).get('lookup');
      assert.ok(second);
      assert.equal((second.inputSchema.properties as Record<string, {type: string}>).id?.type, 'integer');
      assert.deepEqual(second?.outputSchema?.required, ['name', 'score']);
      const b = await connection.client.callTool({name: 'lookup', arguments: {id: 7}});
      assert.deepEqual(b.structuredContent, {name: 'record-7', score: 0.7});

      writeFileSync(schemaFile, JSON.stringify({variant: 'removed'}));
      const third = (await connection.client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(third, ['other']);
      await assert.rejects(
        connection.client.callTool({name: 'lookup', arguments: {id: 1}}),
        /Unknown tool: lookup/,
      );
    });
  },

  large: (target) =>
    withConnection('large', target, {toolCount: 40}, async (connection) => {
      assertNegotiated(connection, target.mode);
      const {tools} = await connection.client.listTools();
      assert.equal(tools.length, 40);
      assert.equal(new Set(tools.map((tool) => JSON.stringify(tool.inputSchema))).size, 5);
      const result = await connection.client.callTool({name: 'tool_0002', arguments: {mode: 'fast'}});
      assert.notEqual(result.isError, true);
      assert.deepEqual(result.structuredContent, {ok: true});
      finishedCall(connection, 'tool_0002', 'ok');
    }),

  counter: (target) =>
    withConnection('counter', target, {}, async (connection) => {
      assertNegotiated(connection, target.mode);
      const echo = await connection.client.callTool({name: 'echo', arguments: {text: 'hello'}});
      assert.equal(textOf(echo), 'hello');
      assert.deepEqual(echo.structuredContent, {text: 'hello'});
      const sum = await connection.client.callTool({name: 'add', arguments: {a: 2, b: 3}});
      assert.deepEqual(sum.structuredContent, {sum: 5, calls: 2});
      assert.deepEqual(
        connection.calls().map((call) => [call.tool, call.status]),
        [
          ['echo', 'ok'],
          ['add', 'ok'],
        ],
      );
    }),
};

// A few scenarios at a time: each starts its own server process, and dozens at once on a loaded 2-core machine
// would make every request wait past its timeout.
for (const transport of ['http', 'stdio'] as const) {
  describe(`MCP test servers over ${transport}`, {concurrency: 3}, () => {
    for (const mode of MODES) {
      for (const [server, scenario] of Object.entries(scenarios)) {
        test(`${server} (${mode})`, () => scenario({transport, mode}));
      }
    }
  });
}

// -------------------------------------------------------------------------------------------------------
// Protocol-mode edges
// -------------------------------------------------------------------------------------------------------

describe('protocol modes', {concurrency: 3}, () => {
  for (const transport of ['http', 'stdio'] as const) {
    test(`a legacy-only client is rejected by a modern server (${transport})`, async () => {
      await assert.rejects(
        connect('counter', {transport, mode: 'modern'}, {clientMode: 'legacy'}),
        /Unsupported protocol version/,
      );
    });

    test(`a legacy-only client negotiates 2025-era with a 'both' server (${transport})`, () =>
      withConnection('counter', {transport, mode: 'both'}, {clientMode: 'legacy'}, async (connection) => {
        assert.equal(connection.client.getNegotiatedProtocolVersion(), LEGACY_VERSION);
        assert.equal(connection.era, 'legacy');
        const sum = await connection.client.callTool({name: 'add', arguments: {a: 1, b: 1}});
        assert.equal((sum.structuredContent as {sum: number}).sum, 2);
        assert.equal(finishedCall(connection, 'add', 'ok').era, 'legacy');
      }));

    test(`a legacy server restricted to 2025-03-26 negotiates it (${transport})`, () =>
      withConnection(
        'counter',
        {transport, mode: 'legacy'},
        {legacyProtocolVersions: ['2025-03-26']},
        async (connection) => {
          assert.equal(connection.client.getNegotiatedProtocolVersion(), '2025-03-26');
          const echo = await connection.client.callTool({name: 'echo', arguments: {text: 'old'}});
          assert.equal(textOf(echo), 'old');
          assert.equal(finishedCall(connection, 'echo', 'ok').protocolVersion, '2025-03-26');
        },
      ));
  }

  test('legacy HTTP uses a session; modern HTTP has none', async () => {
    const legacy = await connect('counter', {transport: 'http', mode: 'legacy'});
    const modern = await connect('counter', {transport: 'http', mode: 'modern'});
    try {
      await legacy.client.callTool({name: 'echo', arguments: {text: 'a'}});
      await modern.client.callTool({name: 'echo', arguments: {text: 'b'}});
      assert.match(legacy.calls()[0]?.sessionId ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(modern.calls()[0]?.sessionId, undefined);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  test('stateless legacy HTTP works too', async () => {
    const http = await startMcpHttpServer('counter', {mode: 'legacy', legacyHttp: 'stateless'});
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      assert.equal(client.getNegotiatedProtocolVersion(), LEGACY_VERSION);
      const echo = await client.callTool({name: 'echo', arguments: {text: 'z'}});
      assert.equal(textOf(echo), 'z');
      assert.equal(http.calls[0]?.sessionId, undefined);
    } finally {
      await client.close();
      await http.close();
    }
  });
});

// -------------------------------------------------------------------------------------------------------
// CLI over HTTP and the large default
// -------------------------------------------------------------------------------------------------------

describe('serve.ts CLI', {concurrency: 3}, () => {
  for (const mode of MODES) {
    test(`--http prints one url line and serves (${mode})`, async () => {
      const log = tempFile('cli-calls.jsonl');
      const child = spawn(
        process.execPath,
        [SERVE_SCRIPT, 'counter', '--http', '--port', '0', '--mode', mode],
        {
          env: {PATH: process.env.PATH ?? '', STRATOS_TEST_CALL_LOG: log},
          stdio: ['pipe', 'pipe', 'ignore'],
        },
      );
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const lines: string[] = [];
      const reader = createInterface({input: child.stdout});
      reader.on('line', (line) => lines.push(line));
      try {
        // Generous: a loaded machine may take many seconds to start a Node process.
        const first = await waitFor(() => lines[0], {timeoutMs: 90_000, intervalMs: 20, what: 'url line'});
        const {url} = JSON.parse(first) as {url: string};
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        const client = newClient();
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        assert.equal(client.getNegotiatedProtocolVersion(), expectedVersion(mode));
        const echo = await client.callTool({name: 'echo', arguments: {text: 'cli'}});
        assert.equal(textOf(echo), 'cli');
        await client.close();
        const calls = readCallLog(log);
        assert.equal(calls.length, 1);
        assert.equal(calls[0]?.status, 'ok');
        assert.equal(calls[0]?.pid, child.pid);
      } finally {
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
      }
      assert.equal(lines.length, 1, 'exactly one stdout line');
    });
  }

  test('large serves 500 tools by default (stdio)', () =>
    withConnection('large', {transport: 'stdio', mode: 'both'}, {}, async (connection) => {
      const {tools} = await connection.client.listTools();
      assert.equal(tools.length, 500);
      assert.equal(tools[499]?.name, 'tool_0499');
    }));
});
