// The shared harness test matrix: every adapter's test file calls defineHarnessMatrix(driver) once, and these
// scenarios run against its real binary and a scripted model server speaking its API. A driver translates the
// one normalized script below into that API (tool-call shapes, structured output, pauses) and back (what a
// request offered and carried). Harness-specific cases stay in the adapter's own test file.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, afterEach, before, test as nodeTest} from 'node:test';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import type {HarnessHome} from '../../servers/models/harness-env.ts';
import {survivingProcesses} from '../../servers/models/harness-env.ts';
import {
  agentFolder,
  buildOnlyFlag,
  scenarioManifest,
  scenarioWorkflow,
} from '../../servers/models/scenario-workflow.ts';

/** One model request, normalized across the APIs. */
export interface MatrixTurn {
  /** The newest user prompt of the conversation (not tool results). */
  prompt: string;
  /** Every message's text, joined: a continued conversation carries earlier turns. */
  transcript: string;
  /** The system or developer instructions. */
  system: string;
  /** Tools offered; MCP tools as `mcp__<server>__<tool>` whatever the native spelling. */
  toolNames: string[];
  /** Tool results since the newest prompt; MCP tools named as in toolNames. */
  toolResults: {tool: string; output: string; isError: boolean}[];
  /** False for a harness's side requests (titles, summaries) that the script answers with plain text. */
  main: boolean;
}

export type MatrixReply =
  | {text: string}
  | {callMcp: {server: string; tool: string; args: Record<string, unknown>}}
  | {structured: Record<string, unknown>}
  /** Answer an output-schema request with something that is not a valid result (prose or a wrong type). */
  | {structuredInvalid: true}
  /** Stream the text slowly (about a second). */
  | {slow: string}
  | {hang: true};

export interface MatrixServer {
  url: string;
  /** Every request; `arrivedStep`/`endedStep` order arrivals and response ends (sse-server.ts). */
  requests: {body: unknown; arrivedStep?: number; endedStep?: number}[];
  modelRequests(): unknown[];
  readonly abortedStreams: number;
  turns(): MatrixTurn[];
  close(): Promise<void>;
}

export interface HarnessDriver {
  harness: 'claude-code' | 'codex' | 'opencode' | 'acp';
  /** Raw YAML lines added to every scenario agent (ACP: the agent's command, args and env). */
  agentSettings?: string;
  /** How long one scenario run may take; default runCli's (two minutes). */
  runTimeoutMs?: number;
  /** An explicit provider for every scenario agent (`ollama`: the local model `qwen3:8b`); default none. */
  provider?: 'ollama';
  /** The prefix of test names; default the harness id. */
  label?: string;
  /** The environment variable with the provider API key: removed for the missing-key case. */
  apiKeyVariable: string;
  startServer(script: (turn: MatrixTurn) => MatrixReply): Promise<MatrixServer>;
  createHome(server: MatrixServer): Promise<HarnessHome>;
  /** Shared scenarios this adapter does not support yet (their key in `matrixScenarios`), with the reason. */
  skip?: Partial<Record<string, string>>;
  /** Plants the harness's user-level configuration with an MCP server named `usermcp`, which must never load. */
  plantUserConfig(home: HarnessHome): Promise<void>;
  /**
   * Plants the harness's project-level configuration in `directory` (the agent's working directory) with an MCP
   * server named `projectmcp` started by `server`, which must never start.
   */
  plantProjectConfig(directory: string, server: {command: string; args: string[]}): Promise<void>;
}

/** What a harness-specific test in the same file uses. */
export interface MatrixContext {
  readonly server: MatrixServer;
  readonly project: TempProject;
  readonly home: HarnessHome;
  readonly callLog: string;
  /** Runs one scenario of the scenario workflow and returns its parsed result. */
  // biome-ignore lint/suspicious/noExplicitAny: scenario results of every shape
  run(scenario: string, env?: Record<string, string>): Promise<any>;
  readLog(): Promise<{event: string; tool: string; arguments: {text?: string}}[]>;
}

/** The one script: decisions come from conversation state (the newest prompt, tool results), never counts. */
export function matrixReply(turn: MatrixTurn): MatrixReply {
  if (!turn.main) return {text: 'side'};
  const prompt = turn.prompt;
  if (prompt.includes('STRUCT_OK')) return {structured: {answer: '42'}};
  if (prompt.includes('STRUCT_BAD')) return {structuredInvalid: true};
  if (prompt.includes('MCP')) {
    const server = prompt.includes('slowcounter') ? 'slowcounter' : 'counter';
    const result = turn.toolResults.find((r) => r.tool === `mcp__${server}__echo`);
    if (result !== undefined) return {text: `echo said ${result.output}${result.isError ? ' (error)' : ''}`};
    return {callMcp: {server, tool: 'echo', args: {text: 'hi'}}};
  }
  if (prompt.includes('CONT second'))
    return {text: turn.transcript.includes('CONT first alpha') ? 'remembered alpha' : 'forgot'};
  if (prompt.includes('CONT first'))
    return {text: `first turn, system: ${turn.system.includes('You are the tester agent.')}`};
  if (prompt.includes('HANG')) return {hang: true};
  if (prompt.includes('SLOW')) return {slow: 'slow answer'};
  return {text: 'hello from the scripted model'};
}

export function defineHarnessMatrix(driver: HarnessDriver): MatrixContext {
  const state = {open: 0, maxOpen: 0};
  let server: MatrixServer;
  let project: TempProject;
  let home: HarnessHome;
  let callLog: string;

  const context: MatrixContext = {
    get server() {
      return server;
    },
    get project() {
      return project;
    },
    get home() {
      return home;
    },
    get callLog() {
      return callLog;
    },
    async run(scenario, env = home.env) {
      const result = await project.cli(
        ['run', 'agent-scenarios', '--json', '--input', JSON.stringify({scenario})],
        {env, ...(driver.runTimeoutMs === undefined ? {} : {timeoutMs: driver.runTimeoutMs})},
      );
      assert.equal(result.exitCode, 0, result.stdout + result.stderr);
      return JSON.parse(result.json.data.output.result);
    },
    async readLog() {
      try {
        return (await readFile(callLog, 'utf8'))
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
      } catch {
        return [];
      }
    },
  };
  const {run, readLog} = context;
  const finished = async (since: number) =>
    (await readLog())
      .slice(since)
      .filter((c) => c.event === 'finish')
      .map((c) => [c.tool, c.arguments.text]);

  before(async () => {
    server = await driver.startServer((turn) => {
      const reply = matrixReply(turn);
      if (!turn.main) return reply;
      state.open += 1;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      // Counted while the reply is written: slow replies keep the stream open about a second.
      setTimeout(() => (state.open -= 1), 'slow' in reply ? 1000 : 0);
      return reply;
    });
    home = await driver.createHome(server);
    project = await createTempProject(`stratos-agent-${driver.harness}-`);
    callLog = join(project.home, 'mcp-calls.jsonl');
    await project.writeWorkflow('agent-scenarios', {
      'workflow.yaml': scenarioManifest(driver.harness, callLog, driver.provider, driver.agentSettings),
      'workflow.ts': scenarioWorkflow,
      'prompts/system.hbs': 'You are the {{role}} agent.',
    });
    await driver.plantUserConfig(home);
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
    assert.deepEqual(
      await survivingProcesses(home.marker),
      [],
      `a ${driver.harness} or MCP process outlived its run`,
    );
  });

  const name = (title: string) => `${driver.label ?? driver.harness}: ${title}`;
  const test = (title: string, fn: () => Promise<void>) => {
    const reason = driver.skip?.[title];
    nodeTest(name(title), reason === undefined ? {} : {skip: reason}, fn);
  };

  test('a text turn returns the text of the scripted model', async () => {
    assert.equal(await run('text'), 'hello from the scripted model');
  });

  test('a second execute continues the conversation with its system prompt', async () => {
    const {first, second} = await run('continue');
    assert.equal(first, 'first turn, system: true');
    assert.equal(second, 'remembered alpha');
  });

  test('a tool call reaches the workflow-defined MCP server, which records it', async () => {
    const since = (await readLog()).length;
    assert.match(await run('mcp'), /^echo said .*hi/s);
    assert.deepEqual(await finished(since), [['echo', 'hi']]);
  });

  test('a selected MCP server that is slow to start is still offered, natively and with hooks', async () => {
    const since = (await readLog()).length;
    assert.match(await run('mcp-slow'), /^echo said .*hi/s);
    assert.match(await run('mcp-slow-hooked'), /^echo said .*hi/s);
    assert.deepEqual(await finished(since), [
      ['echo', 'hi'],
      ['echo', 'hi'],
    ]);
  });

  test('a selected MCP server that cannot start fails with STRATOS_MCP_CONNECT_FAILED', async () => {
    const result = await run('mcp-broken');
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'STRATOS_MCP_CONNECT_FAILED');
    assert.match(result.error.message, /'broken'/);
  });

  test('structured output: a valid result is returned, an invalid one is an error', async () => {
    assert.deepEqual(await run('structured-ok'), {ok: true, value: {answer: '42'}});
    const bad = await run('structured-bad');
    assert.equal(bad.ok, false);
    assert.match(bad.error.code, /^STRATOS_AGENT_OUTPUT_(MISSING|INVALID)$/);
  });

  test('a before-tool hook denies with feedback: the model sees it, the tool never runs', async () => {
    const since = (await readLog()).length;
    assert.match(await run('hook-deny'), /DENIED-BY-HOOK/);
    assert.deepEqual((await readLog()).slice(since), []);
  });

  test('a before-tool hook modifies the arguments the MCP server receives', async () => {
    const since = (await readLog()).length;
    assert.match(await run('hook-modify'), /MODIFIED-BY-HOOK/);
    assert.deepEqual(await finished(since), [['echo', 'MODIFIED-BY-HOOK']]);
  });

  test('a before-tool hook that throws fails the execution', async () => {
    const result = await run('hook-throws');
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'STRATOS_AGENT_HOOK_FAILED');
    assert.match(result.error.message, /hook exploded/);
  });

  test('an after-tool hook withholds the result: the model sees the feedback only', async () => {
    const since = (await readLog()).length;
    const {text, seen} = await run('hook-withhold');
    assert.deepEqual(await finished(since), [['echo', 'hi']], 'the tool itself ran');
    assert.match(text, /WITHHELD-BY-HOOK/);
    assert.doesNotMatch(text, /"hi"/);
    assert.deepEqual(seen, [
      {nativeName: 'mcp__counter__echo', mcp: {server: 'counter', tool: 'echo'}, input: {text: 'hi'}},
    ]);
  });

  test('lifecycle hooks report start, completion and failure; a throwing onError keeps it', async () => {
    const {ok, failed, both, events} = await run('lifecycle');
    assert.deepEqual(ok, {ok: true, value: 'hello from the scripted model'});
    assert.equal(failed.error.code, 'STRATOS_AGENT_HOOK_FAILED');
    assert.equal(both.error.code, 'STRATOS_AGENT_HOOK_FAILED');
    assert.match(both.error.message, /onError hook threw .*reporting exploded/);
    const harness = driver.harness;
    assert.deepEqual(events, [
      {hook: 'start', agent: 'plain', harness, prompt: 'TEXT lifecycle'},
      {hook: 'complete', output: 'hello from the scripted model'},
      {hook: 'start', agent: 'main', harness, prompt: 'MCP call the echo tool'},
      {hook: 'error', code: 'STRATOS_AGENT_HOOK_FAILED'},
      {hook: 'start', agent: 'main', harness, prompt: 'MCP call the echo tool'},
    ]);
  });

  test('an overlapping execute is rejected; the running one and later calls succeed', async () => {
    const {overlapping, slow, after} = await run('overlap');
    assert.equal(overlapping.error.code, 'STRATOS_AGENT_BUSY');
    assert.equal(slow, 'slow answer');
    assert.equal(after, 'hello from the scripted model');
  });

  test('cancel() mid-stream rejects that execute; the next one continues', async () => {
    const aborted = server.abortedStreams;
    const {cancelled, after} = await run('cancel');
    assert.equal(cancelled.ok, false);
    assert.equal(cancelled.error.code, 'STRATOS_AGENT_CANCELLED');
    assert.equal(cancelled.error.cancelled, true);
    assert.deepEqual(after, {ok: true, value: 'hello from the scripted model'});
    assert.ok(server.abortedStreams > aborted, 'the streamed request was abandoned');
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

  test('without an API key or login, an AuthenticationError comes before any request', async () => {
    const count = server.requests.length;
    const {[driver.apiKeyVariable]: _key, ...env} = home.env;
    const result = await run('no-auth', env);
    assert.equal(result.error.code, 'STRATOS_AUTH_REQUIRED');
    assert.equal(result.error.name, 'AuthenticationError');
    assert.equal(server.requests.length, count);
  });

  test('user-level MCP configuration of the harness is never loaded', async () => {
    await run('mcp');
    const offered = new Set(server.turns().flatMap((turn) => turn.toolNames));
    assert.ok(
      offered.has('mcp__counter__echo'),
      `the workflow server is offered: ${[...offered].join(', ')}`,
    );
    assert.deepEqual(
      [...offered].filter((n) => n.includes('usermcp')),
      [],
    );
    assert.equal(JSON.stringify(server.requests.map((r) => r.body)).includes('usermcp'), false);
  });

  test('a relative workingDirectory: the harness works in that folder, ignores its project MCP settings, cwd stays', async () => {
    const folder = join(project.cwd, agentFolder);
    const marker = join(project.home, 'projectmcp-started');
    await mkdir(folder, {recursive: true});
    await driver.plantProjectConfig(folder, {
      command: '/bin/sh',
      args: ['-c', 'touch "$0"; exec "$@"', marker, process.execPath, SERVE_SCRIPT, 'counter', '--stdio'],
    });
    const since = server.requests.length;
    const {before, after, text} = await run('working-directory');
    assert.equal(text, 'hello from the scripted model');
    assert.equal(before, project.cwd, 'the workflow runs in the invocation directory');
    assert.equal(after, project.cwd, "the agent did not change the process's working directory");
    const bodies = server.requests.slice(since).map((r) => JSON.stringify(r.body));
    // The harness tells its model where it works (side requests such as titles need not).
    assert.ok(
      bodies.some((body) => body.includes('TEXT WORKDIR') && body.includes(folder)),
      `the harness reported ${folder} as its working directory`,
    );
    assert.equal(existsSync(marker), false, 'the project-level MCP server was started');
    assert.equal(
      bodies.some((body) => body.includes('projectmcp')),
      false,
      'the project-level MCP server was offered',
    );
  });

  test('a failed start is retried on the same agent object once the cause is gone', async () => {
    const flag = buildOnlyFlag(callLog);
    const {first, second} = await run('retry-start', {...home.env, STRATOS_TEST_START_FLAG: flag});
    assert.equal(first.ok, false);
    assert.equal(first.error.code, 'STRATOS_MCP_CONNECT_FAILED');
    assert.deepEqual(second, {ok: true, value: 'hello from the scripted model'});
  });

  test('admission: more agents than maxActive queue; past maxOutstanding a catchable error', async () => {
    await writeFile(
      join(project.home, 'settings.json'),
      JSON.stringify({agents: {maxActive: 2, maxOutstanding: 3}}),
    );
    state.open = 0;
    state.maxOpen = 0;
    try {
      const results = await run('admission');
      assert.deepEqual(
        results.map((r: {ok: boolean}) => r.ok),
        [true, true, true, false],
      );
      assert.equal(results[3].error.code, 'STRATOS_AGENT_ADMISSION_LIMIT');
      assert.ok(state.maxOpen <= 2, `at most 2 agents were active at once (saw ${state.maxOpen})`);
    } finally {
      await writeFile(join(project.home, 'settings.json'), '{}');
    }
  });

  test('a workflow failure cancels its running agent; no process outlives the run', async () => {
    const result = await project.cli(
      ['run', 'agent-scenarios', '--json', '--input', JSON.stringify({scenario: 'fail-while-running'})],
      {env: home.env},
    );
    assert.equal(result.exitCode, 1);
    assert.match(result.json.error.message, /workflow failed while its agent was running/);
  });

  return context;
}
