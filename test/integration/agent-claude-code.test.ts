// The Claude Code harness end to end: the real CLI runs a workflow whose agents drive the real claude binary
// against a scripted Anthropic Messages server, with an isolated home and no outbound traffic.
import assert from 'node:assert/strict';
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../helpers/temp-project.ts';
import {
  type AnthropicServer,
  type AnthropicTurn,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../servers/models/harness-env.ts';
import {buildOnlyFlag, scenarioManifest, scenarioWorkflow} from '../servers/models/scenario-workflow.ts';

let server: AnthropicServer;
let project: TempProject;
let home: HarnessHome;
let callLog: string;
let open = 0;
let maxOpen = 0;

function reply(turn: AnthropicTurn) {
  if (!isMainTurn(turn)) return {text: 'side'};
  const text = turn.lastText;
  if (text.includes('STRUCT_OK')) {
    if (resultOf(turn, 'StructuredOutput')) return {text: 'done'};
    return toolCall(turn, 'StructuredOutput', {answer: '42'});
  }
  if (text.includes('STRUCT_BAD')) return {text: 'The answer is 42, in prose.'};
  if (text.includes('MCP') || turn.toolResults.length > 0) {
    const tool = turn.transcript.includes('slowcounter') ? 'mcp__slowcounter__echo' : 'mcp__counter__echo';
    const echo = resultOf(turn, tool);
    if (echo !== undefined) return {text: `echo said ${echo.content}${echo.isError ? ' (error)' : ''}`};
    return toolCall(turn, tool, {text: 'hi'});
  }
  if (text.includes('CONT second'))
    return {text: turn.transcript.includes('CONT first alpha') ? 'remembered alpha' : 'forgot'};
  if (text.includes('CONT first')) return {text: `first turn, system: ${turn.systemText}`};
  if (text.includes('HANG')) return {hang: true} as const;
  if (text.includes('SLOW')) return {text: 'slow answer', chunks: 4, pauseMs: 250};
  return {text: 'hello from the scripted model'};
}

before(async () => {
  server = await startAnthropicServer(async (turn) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    try {
      return reply(turn);
    } finally {
      // Counted while the reply is written: SLOW replies keep the stream open about a second.
      setTimeout(() => (open -= 1), turn.lastText.includes('SLOW') ? 1000 : 0);
    }
  });
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-agent-claude-');
  callLog = join(project.home, 'mcp-calls.jsonl');
  await project.writeWorkflow('agent-scenarios', {
    'workflow.yaml': scenarioManifest('claude-code', callLog),
    'workflow.ts': scenarioWorkflow,
    'prompts/system.hbs': 'You are the {{role}} agent.',
  });
  // A user-level MCP configuration of the harness that must never load.
  await writeFile(
    join(home.env.CLAUDE_CONFIG_DIR!, '.claude.json'),
    JSON.stringify({mcpServers: {usermcp: {type: 'stdio', command: 'node', args: ['-e', '']}}}),
  );
  await mkdir(join(home.env.HOME!, '.claude'), {recursive: true});
  await writeFile(
    join(home.env.HOME!, '.claude.json'),
    JSON.stringify({mcpServers: {usermcp2: {type: 'stdio', command: 'node', args: ['-e', '']}}}),
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
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a claude or MCP process outlived its run');
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
  assert.match(first, /system: .*You are the tester agent\./);
  assert.equal(second, 'remembered alpha');
});

test('a tool call reaches the workflow-defined MCP server, which records it', async () => {
  const before = await readLog();
  assert.equal(await run('mcp'), 'echo said {"text":"hi"}');
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

test('structured output: a valid result is returned, prose is an error', async () => {
  assert.deepEqual(await run('structured-ok'), {ok: true, value: {answer: '42'}});
  const bad = await run('structured-bad');
  assert.equal(bad.ok, false);
  assert.match(bad.error.code, /^STRATOS_AGENT_(OUTPUT_MISSING|OUTPUT_INVALID|RUN_FAILED)$/);
});

test('a before-tool hook denies with feedback; the model sees the feedback and the tool never runs', async () => {
  const before = await readLog();
  const text = await run('hook-deny');
  assert.match(text, /DENIED-BY-HOOK/);
  assert.match(text, /\(error\)/);
  assert.deepEqual((await readLog()).slice(before.length), []);
});

test('a before-tool hook modifies the arguments the MCP server receives', async () => {
  const before = await readLog();
  assert.equal(await run('hook-modify'), 'echo said {"text":"MODIFIED-BY-HOOK"}');
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => c.arguments.text),
    ['MODIFIED-BY-HOOK'],
  );
});

test('a before-tool hook that throws fails the execution', async () => {
  const result = await run('hook-throws');
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(result.error.message, /hook exploded/);
});

test('an after-tool hook withholds the result; the model sees the feedback, not the real output', async () => {
  const before = await readLog();
  const {text, seen} = await run('hook-withhold');
  const calls = (await readLog()).slice(before.length).filter((c) => c.event === 'finish');
  assert.deepEqual(
    calls.map((c) => c.arguments.text),
    ['hi'],
    'the tool itself ran',
  );
  assert.match(text, /WITHHELD-BY-HOOK/);
  assert.doesNotMatch(text, /"hi"/);
  assert.deepEqual(seen, [
    {nativeName: 'mcp__counter__echo', mcp: {server: 'counter', tool: 'echo'}, input: {text: 'hi'}},
  ]);
});

test('lifecycle hooks report start, completion and failure; a throwing onError keeps the failure', async () => {
  const {ok, failed, both, events} = await run('lifecycle');
  assert.deepEqual(ok, {ok: true, value: 'hello from the scripted model'});
  assert.equal(failed.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.equal(both.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(both.error.message, /onError hook threw .*reporting exploded/);
  assert.deepEqual(events, [
    {hook: 'start', agent: 'plain', harness: 'claude-code', prompt: 'TEXT lifecycle'},
    {hook: 'complete', output: 'hello from the scripted model'},
    {hook: 'start', agent: 'main', harness: 'claude-code', prompt: 'MCP call the echo tool'},
    {hook: 'error', code: 'STRATOS_AGENT_HOOK_FAILED'},
    {hook: 'start', agent: 'main', harness: 'claude-code', prompt: 'MCP call the echo tool'},
  ]);
});

test('an overlapping execute is rejected; the running one and later calls succeed', async () => {
  const {overlapping, slow, after} = await run('overlap');
  assert.equal(overlapping.error.code, 'STRATOS_AGENT_BUSY');
  assert.equal(slow, 'slow answer');
  assert.equal(after, 'hello from the scripted model');
});

test('cancel() in the middle of a streamed turn rejects that execute; the next one continues', async () => {
  const aborted = server.abortedStreams;
  const {cancelled, after} = await run('cancel');
  assert.equal(cancelled.ok, false);
  assert.equal(cancelled.error.code, 'STRATOS_AGENT_CANCELLED');
  assert.equal(cancelled.error.cancelled, true);
  assert.deepEqual(after, {ok: true, value: 'hello from the scripted model'});
  assert.ok(server.abortedStreams > aborted, 'the streamed request was abandoned');
});

test('disallowedTools removes built-in tools (shared and native names) and keeps the others', async () => {
  assert.equal(await run('no-bash'), 'hello from the scripted model');
  const turn = server
    .turns()
    .filter(isMainTurn)
    .findLast((t) => t.lastText.includes('NOBASH'))!;
  assert.equal(turn.toolNames.includes('Bash'), false);
  assert.equal(turn.toolNames.includes('WebFetch'), false);
  assert.ok(turn.toolNames.includes('Read'));
});

test('a missing variable fails before anything reaches a model', async () => {
  const count = server.modelRequests().length;
  const result = await run('missing-variable');
  assert.equal(result.error.code, 'STRATOS_PROMPT_VARIABLE_MISSING');
  assert.equal(server.modelRequests().length, count);
});

test('an unknown allowedMcps name is a catchable configuration error', async () => {
  const result = await run('unknown-mcp');
  assert.equal(result.error.code, 'STRATOS_AGENT_MCP_UNKNOWN');
});

test('without an API key or login, a catchable AuthenticationError comes before any request', async () => {
  const count = server.requests.length;
  const {ANTHROPIC_API_KEY: _key, ...env} = home.env;
  const result = await run('no-auth', env);
  assert.equal(result.error.code, 'STRATOS_AUTH_REQUIRED');
  assert.equal(result.error.name, 'AuthenticationError');
  assert.equal(server.requests.length, count);
});

test('user-level MCP settings of Claude Code are never loaded', async () => {
  const offered = new Set(server.turns().flatMap((turn) => turn.toolNames));
  assert.ok(
    offered.has('mcp__counter__echo') || [...offered].some((n) => n.startsWith('mcp__counter')),
    'the workflow server is offered',
  );
  assert.deepEqual(
    [...offered].filter((name) => name.includes('usermcp')),
    [],
  );
  const all = JSON.stringify(server.requests.map((r) => r.body));
  assert.equal(all.includes('usermcp'), false);
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

test('a workflow failure cancels its running agent and no claude process outlives the run', async () => {
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
