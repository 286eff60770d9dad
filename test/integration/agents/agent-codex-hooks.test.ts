// Tool hooks on Codex through the in-process MCP hook bridge: the real CLI runs a workflow whose agents drive the
// real codex binary against a scripted OpenAI Responses server. Codex is given the bridge in place of the
// workflow's `counter` MCP server; the bridge runs the hooks and forwards calls to the real server. Also the
// bridge on its own: bearer token, tool listing, forwarding, and that close() ends the listener and upstream.
import assert from 'node:assert/strict';
import {readdir, readFile} from 'node:fs/promises';
import {connect} from 'node:net';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client';
import type {HookFailure} from '../../../src/agents/harness-kit/hooks.ts';
import {startMcpHookBridge} from '../../../src/agents/harness-kit/mcp-hook-bridge.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {pollUntil} from '../../helpers/wait-for.ts';
import {SERVE_SCRIPT, startMcpHttpServer} from '../../servers/mcp/index.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {
  mcpToolCall,
  type ResponsesServer,
  type ResponsesTurn,
  startResponsesServer,
} from '../../servers/models/openai-responses.ts';

let server: ResponsesServer;
let project: TempProject;
let home: HarnessHome;
let callLog: string;

/** Every prompt asks for one echo call; with its output the model repeats it. */
function reply(turn: ResponsesTurn) {
  const result = turn.toolResults[0];
  if (result !== undefined) return {text: `echo said ${result.output}`};
  return mcpToolCall(turn, 'counter', 'echo', {text: 'hi'});
}

const workflowSource = `import {createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const failure = (error: unknown) => ({
  code: isStratosError(error) ? error.code : 'not-a-stratos-error',
  message: (error as Error).message,
});

async function attempt<T>(fn: () => Promise<T>) {
  try {
    return {ok: true, value: await fn()};
  } catch (error) {
    return {ok: false, error: failure(error)};
  }
}

async function scenario(name: string): Promise<unknown> {
  const seen: unknown[] = [];
  switch (name) {
    case 'deny': {
      const text = await createAgent('main', {
        hooks: {
          beforeTool: (call) => {
            seen.push(call);
            return call.mcp?.tool === 'echo' ? {action: 'deny', feedback: 'DENIED-BY-HOOK'} : undefined;
          },
        },
      }).execute('DENY call the echo tool');
      return {text, seen};
    }
    case 'modify':
      return createAgent('main', {
        hooks: {beforeTool: (call) => ({action: 'modify', input: {...call.input, text: 'MODIFIED-BY-HOOK'}})},
      }).execute('MODIFY call the echo tool');
    case 'withhold': {
      const text = await createAgent('main', {
        hooks: {
          afterTool: (call) => {
            seen.push(call);
            return {action: 'withhold', feedback: 'WITHHELD-BY-HOOK'};
          },
        },
      }).execute('WITHHOLD call the echo tool');
      return {text, seen};
    }
    case 'throws': {
      const agent = createAgent('main', {hooks: {beforeTool: () => { throw new Error('hook exploded'); }}});
      const first = await attempt(() => agent.execute('THROW call the echo tool'));
      const afterThrow = await attempt(() =>
        createAgent('main', {hooks: {afterTool: () => { throw new Error('after hook exploded'); }}}).execute(
          'THROW-AFTER call the echo tool',
        ),
      );
      return {first, afterThrow};
    }
    default:
      throw new Error('unknown scenario ' + name);
  }
}

export default workflow({
  input: z.strictObject({scenario: z.string().describe('Which scenario to run')}),
  output: z.object({result: z.string().describe('The scenario result as JSON text')}),
  async run({scenario: name}) {
    return {result: JSON.stringify(await scenario(name))};
  },
});
`;

before(async () => {
  server = await startResponsesServer(reply);
  home = await createHarnessHome({openaiUrl: server.url});
  project = await createTempProject('stratos-agent-codex-hooks-');
  callLog = join(project.home, 'mcp-calls.jsonl');
  await project.writeWorkflow('codex-hooks', {
    'workflow.yaml': manifest(
      'codex-hooks',
      `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
      env:
        STRATOS_TEST_CALL_LOG: ${JSON.stringify(callLog)}
agents:
  main:
    harness: codex
    model: gpt-test
    disallowedTools: [web search]
`,
    ),
    'workflow.ts': workflowSource,
  });
  const build = await project.cli(['build', 'codex-hooks', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  await server?.close();
  await project?.remove();
  await home?.remove();
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a codex process or the CLI outlived its run');
  assert.deepEqual(
    await upstreamServers(callLog),
    [],
    'an upstream MCP server of the bridge outlived its run',
  );
});

async function run(scenario: string) {
  const result = await project.cli(['run', 'codex-hooks', '--json', '--input', JSON.stringify({scenario})], {
    env: home.env,
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  return JSON.parse(result.json.data.output.result);
}

/** The model request that carries the tool output of the turn whose prompt includes `marker`. */
function toolOutputTurn(marker: string): ResponsesTurn {
  const turn = server.turns().find((t) => t.userText.includes(marker) && t.toolResults.length > 0);
  assert.ok(turn, `a model request carried the tool output of the ${marker} turn`);
  return turn;
}

test('Codex is offered the real server tools through the bridge, names unchanged', async () => {
  await run('modify');
  const offered = server.turns().find((t) => t.userText.includes('MODIFY'))!.toolNames;
  assert.ok(offered.includes('mcp__counter__echo'), offered.join(', '));
  assert.ok(offered.includes('mcp__counter__add'), offered.join(', '));
});

test('a before-tool hook denies: the server records no call, the model receives the feedback', async () => {
  const before = await readLog();
  const {text, seen} = await run('deny');
  assert.deepEqual((await readLog()).slice(before.length), []);
  const output = toolOutputTurn('DENY').toolResults[0]!.output;
  assert.match(output, /DENIED-BY-HOOK/);
  assert.match(text, /DENIED-BY-HOOK/);
  // The same shared shape the Claude Code adapter reports, so one hook works on both harnesses.
  assert.deepEqual(seen, [
    {nativeName: 'mcp__counter__echo', mcp: {server: 'counter', tool: 'echo'}, input: {text: 'hi'}},
  ]);
});

test('a before-tool hook modifies the arguments the MCP server receives', async () => {
  const before = await readLog();
  const text = await run('modify');
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => [c.tool, c.arguments.text]),
    [['echo', 'MODIFIED-BY-HOOK']],
  );
  assert.match(text, /MODIFIED-BY-HOOK/);
});

test('an after-tool hook withholds the result: the model receives the feedback, not the real output', async () => {
  const before = await readLog();
  const {seen} = await run('withhold');
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => c.arguments.text),
    ['hi'],
    'the tool itself ran',
  );
  const output = toolOutputTurn('WITHHOLD').toolResults[0]!.output;
  assert.match(output, /WITHHELD-BY-HOOK/);
  assert.doesNotMatch(output, /\bhi\b/);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].nativeName, 'mcp__counter__echo');
  assert.deepEqual(seen[0].result.structuredContent, {text: 'hi'}, 'the hook saw the real result');
});

test('a throwing before-tool or after-tool hook fails the execute with STRATOS_AGENT_HOOK_FAILED', async () => {
  const before = await readLog();
  const {first, afterThrow} = await run('throws');
  assert.equal(first.ok, false);
  assert.equal(first.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(first.error.message, /hook exploded/);
  assert.equal(afterThrow.ok, false);
  assert.equal(afterThrow.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(afterThrow.error.message, /after hook exploded/);
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => c.arguments.text),
    ['hi'],
    'only the after-tool case reached the server',
  );
});

test('the bridge alone: bearer token required, tools forwarded, close() ends listener and upstream', async () => {
  const log = join(project.home, 'bridge-direct.jsonl');
  const failures: HookFailure[] = [];
  const remote = await startMcpHttpServer('counter');
  const remoteConfig = {
    name: 'remote',
    type: 'http' as const,
    url: remote.url,
    headers: {'x-credential': 'one'},
  };
  const bridge = await startMcpHookBridge({
    hooks: {beforeTool: (call) => ({action: 'modify', input: {...call.input, text: `${call.input.text}!`}})},
    servers: [
      {
        name: 'counter',
        type: 'stdio',
        command: process.execPath,
        args: [SERVE_SCRIPT, 'counter', '--stdio'],
        env: {STRATOS_TEST_CALL_LOG: log},
        cwd: project.cwd,
      },
      remoteConfig,
    ],
    onHookFailure: (failure) => failures.push(failure),
  });
  const [endpoint] = bridge.endpoints;
  assert.ok(endpoint !== undefined);
  const url = new URL(endpoint.url);
  assert.equal(url.hostname, '127.0.0.1');
  try {
    const anonymous = await fetch(url, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream'},
      body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list', params: {}}),
    });
    assert.equal(anonymous.status, 401);
    const wrong = await fetch(url, {method: 'POST', headers: {authorization: 'Bearer nope'}, body: '{}'});
    assert.equal(wrong.status, 401);

    const client = new Client({name: 'test', version: '1'});
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: {headers: {authorization: `Bearer ${bridge.token}`}},
      }),
    );
    const {tools} = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['add', 'echo']);
    const result = await client.callTool({name: 'echo', arguments: {text: 'direct'}});
    assert.deepEqual(result.structuredContent, {text: 'direct!'});
    await client.close();
    assert.equal((await upstreamServers(log)).length, 1, 'the bridge runs the upstream server');

    // An HTTP upstream, also after its configuration changed (credentials refreshed between requests).
    const remoteEndpoint = bridge.endpoints.find((e) => e.name === 'remote')!;
    const remoteClient = new Client({name: 'test', version: '1'});
    const headers = {authorization: `Bearer ${bridge.token}`};
    await remoteClient.connect(
      new StreamableHTTPClientTransport(new URL(remoteEndpoint.url), {requestInit: {headers}}),
    );
    await remoteClient.callTool({name: 'echo', arguments: {text: 'http'}});
    await bridge.update([{...remoteConfig, headers: {'x-credential': 'two'}}]);
    await remoteClient.callTool({name: 'echo', arguments: {text: 'again'}});
    await remoteClient.close();
    assert.deepEqual(
      remote.calls.map((c) => c.arguments.text),
      ['http!', 'again!'],
    );
  } finally {
    await bridge.close();
    await remote.close();
  }
  assert.deepEqual(failures, []);
  assert.equal(await refusesConnections(Number(url.port)), true, 'the bridge listener is closed');
  await pollUntil(async () => (await upstreamServers(log)).length === 0, {timeoutMs: 2000});
  assert.deepEqual(await upstreamServers(log), [], 'the upstream server ended with the bridge');
});

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Processes started with this call log in their environment: the upstream MCP servers of a test. */
async function upstreamServers(log: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, 'utf8');
      // The process-group launcher in front of each stdio server carries its environment too; count servers.
      const command = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (command.includes('stdio-launcher')) continue;
      if (environ.split('\0').includes(`STRATOS_TEST_CALL_LOG=${log}`)) found.push(Number(entry));
    } catch {
      // Ended while we looked, or not ours.
    }
  }
  return found;
}

async function readLog(): Promise<{event: string; tool: string; arguments: {text?: string}}[]> {
  try {
    return (await readFile(callLog, 'utf8'))
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}
