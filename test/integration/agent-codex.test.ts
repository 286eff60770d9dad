// The Codex harness end to end: the real CLI runs a workflow whose agents drive the real codex binary against a
// scripted OpenAI Responses server, with an isolated CODEX_HOME (outside /tmp) and no outbound traffic.
import assert from 'node:assert/strict';
import {readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../helpers/temp-project.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../servers/models/harness-env.ts';
import {
  mcpToolCall,
  type ResponsesServer,
  type ResponsesTurn,
  startResponsesServer,
} from '../servers/models/openai-responses.ts';
import {buildOnlyFlag, scenarioManifest, scenarioWorkflow} from '../servers/models/scenario-workflow.ts';

let server: ResponsesServer;
let project: TempProject;
let home: HarnessHome;
let callLog: string;
let open = 0;
let maxOpen = 0;

function reply(turn: ResponsesTurn) {
  const text = turn.userText;
  if (text.includes('STRUCT_OK')) return {text: JSON.stringify({answer: '42'})};
  if (text.includes('STRUCT_BAD')) return {text: JSON.stringify({answer: 42})};
  if (text.includes('MCP')) {
    const result = turn.toolResults[0];
    if (result !== undefined) return {text: `echo said ${result.output}`};
    return mcpToolCall(turn, text.includes('slowcounter') ? 'slowcounter' : 'counter', 'echo', {text: 'hi'});
  }
  if (text.includes('CONT second'))
    return {text: turn.transcript.includes('CONT first alpha') ? 'remembered alpha' : 'forgot'};
  if (text.includes('CONT first'))
    return {text: `first turn, developer: ${turn.transcript.includes('You are the tester agent.')}`};
  if (text.includes('HANG')) return {hang: true} as const;
  if (text.includes('SLOW')) return {text: 'slow answer', pauseMs: 1000};
  return {text: 'hello from the scripted model'};
}

before(async () => {
  server = await startResponsesServer(async (turn) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    try {
      return reply(turn);
    } finally {
      setTimeout(() => (open -= 1), turn.userText.includes('SLOW') ? 1000 : 0);
    }
  });
  home = await createHarnessHome({openaiUrl: server.url});
  project = await createTempProject('stratos-agent-codex-');
  callLog = join(project.home, 'mcp-calls.jsonl');
  await project.writeWorkflow('agent-scenarios', {
    'workflow.yaml': scenarioManifest('codex', callLog),
    'workflow.ts': scenarioWorkflow,
    'prompts/system.hbs': 'You are the {{role}} agent.',
  });
  // A user-level Codex configuration with an MCP server that must never load.
  await writeFile(
    join(home.env.CODEX_HOME!, 'config.toml'),
    '[mcp_servers.usermcp]\ncommand = "node"\nargs = ["-e", ""]\n',
  );
  await writeFile(buildOnlyFlag(callLog), '');
  const build = await project.cli(['build', 'agent-scenarios', '--json'], {env: home.env});
  await rm(buildOnlyFlag(callLog));
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  await server?.close();
  await project?.remove();
  await home?.remove();
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a codex or MCP process outlived its run');
});

async function run(scenario: string, env: Record<string, string> = home.env) {
  const result = await project.cli(
    ['run', 'agent-scenarios', '--json', '--input', JSON.stringify({scenario})],
    {env},
  );
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  return JSON.parse(result.json.data.output.result);
}

test('a text turn returns the text of the scripted model', async () => {
  assert.equal(await run('text'), 'hello from the scripted model');
});

test('a second execute continues the conversation: the second request carries the first turn', async () => {
  const {first, second} = await run('continue');
  assert.equal(first, 'first turn, developer: true');
  assert.equal(second, 'remembered alpha');
});

test('a tool call reaches the workflow-defined MCP server, which records it', async () => {
  const before = await readLog();
  assert.match(await run('mcp'), /^echo said .*hi/s);
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => [c.tool, c.arguments.text]),
    [['echo', 'hi']],
  );
});

test('a selected MCP server that is slow to start is still offered, natively and through tool hooks', async () => {
  const before = await readLog();
  assert.match(await run('mcp-slow'), /^echo said .*hi/s);
  assert.match(await run('mcp-slow-hooked'), /^echo said .*hi/s);
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => [c.tool, c.arguments.text]),
    [
      ['echo', 'hi'],
      ['echo', 'hi'],
    ],
  );
});

test('a selected MCP server that cannot start fails the execute with STRATOS_MCP_CONNECT_FAILED', async () => {
  const result = await run('mcp-broken');
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_MCP_CONNECT_FAILED');
  assert.match(result.error.message, /'broken'/);
});

test('structured output: the schema is sent natively; a valid result is returned, an invalid one is an error', async () => {
  assert.deepEqual(await run('structured-ok'), {ok: true, value: {answer: '42'}});
  const request = server.turns().find((turn) => turn.userText.includes('STRUCT_OK'));
  assert.equal(request?.body.text?.format?.type, 'json_schema');
  const bad = await run('structured-bad');
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, 'STRATOS_AGENT_OUTPUT_INVALID');
});

test('a throwing tool hook fails the execution (through the MCP hook bridge, as on Claude Code)', async () => {
  const result = await run('hook-throws');
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(result.error.message, /hook exploded/);
});

test('lifecycle hooks report start, completion and failure; a throwing onError keeps the failure', async () => {
  const {ok, failed, both, events} = await run('lifecycle');
  assert.deepEqual(ok, {ok: true, value: 'hello from the scripted model'});
  assert.equal(failed.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.equal(both.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(both.error.message, /onError hook threw .*reporting exploded/);
  assert.deepEqual(events, [
    {hook: 'start', agent: 'plain', harness: 'codex', prompt: 'TEXT lifecycle'},
    {hook: 'complete', output: 'hello from the scripted model'},
    {hook: 'start', agent: 'main', harness: 'codex', prompt: 'MCP call the echo tool'},
    {hook: 'error', code: 'STRATOS_AGENT_HOOK_FAILED'},
    {hook: 'start', agent: 'main', harness: 'codex', prompt: 'MCP call the echo tool'},
  ]);
});

test('an overlapping execute is rejected; the running one and later calls succeed', async () => {
  const {overlapping, slow, after} = await run('overlap');
  assert.equal(overlapping.error.code, 'STRATOS_AGENT_BUSY');
  assert.equal(slow, 'slow answer');
  assert.equal(after, 'hello from the scripted model');
});

test('cancel() in the middle of a streamed turn rejects that execute; the next one continues the thread', async () => {
  const {cancelled, after} = await run('cancel');
  assert.equal(cancelled.error.code, 'STRATOS_AGENT_CANCELLED');
  assert.equal(cancelled.error.cancelled, true);
  assert.deepEqual(after, {ok: true, value: 'hello from the scripted model'});
  const last = server.turns().at(-1)!;
  assert.ok(last.transcript.includes('HANG forever'), 'the continued thread carries the cancelled prompt');
});

test('without an API key or login, a catchable AuthenticationError comes before any request', async () => {
  const count = server.requests.length;
  const {OPENAI_API_KEY: _key, ...env} = home.env;
  const result = await run('no-auth', env);
  assert.equal(result.error.code, 'STRATOS_AUTH_REQUIRED');
  assert.equal(result.error.name, 'AuthenticationError');
  assert.equal(server.requests.length, count);
});

test('user-level Codex MCP configuration is never loaded', async () => {
  const offered = new Set(server.turns().flatMap((turn) => turn.toolNames));
  assert.ok(offered.has('mcp__counter__echo'), `the workflow server is offered: ${[...offered].join(', ')}`);
  assert.deepEqual(
    [...offered].filter((name) => name.includes('usermcp')),
    [],
  );
  assert.equal(JSON.stringify(server.requests.map((r) => r.body)).includes('usermcp'), false);
});

test('admission: more agents than maxActive queue; past maxOutstanding a catchable error', async () => {
  await writeFile(
    join(project.home, 'settings.json'),
    JSON.stringify({agents: {maxActive: 2, maxOutstanding: 3}}),
  );
  open = 0;
  maxOpen = 0;
  try {
    const results = await run('admission');
    assert.deepEqual(
      results.map((r: {ok: boolean}) => r.ok),
      [true, true, true, false],
    );
    assert.equal(results[3].error.code, 'STRATOS_AGENT_ADMISSION_LIMIT');
    assert.ok(maxOpen <= 2, `at most 2 agents were active at once (saw ${maxOpen})`);
  } finally {
    await writeFile(join(project.home, 'settings.json'), '{}');
  }
});

test('a workflow failure cancels its running agent and no codex process outlives the run', async () => {
  const result = await project.cli(
    ['run', 'agent-scenarios', '--json', '--input', JSON.stringify({scenario: 'fail-while-running'})],
    {env: home.env},
  );
  assert.equal(result.exitCode, 1);
  assert.match(result.json.error.message, /workflow failed while its agent was running/);
});

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
