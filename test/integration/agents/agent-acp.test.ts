// The ACP harness end to end through the real CLI, against the protocol-level test agent
// (test/servers/acp/test-agent.ts, a real process on the SDK's agent side): one session per agent with further
// prompts in it, the system prompt, env references and the working directory; model selection where the agent
// offers it; MCP servers as session servers and an agent without HTTP MCP support; permission requests and the
// beforeTool hook (allow, deny with feedback, modify refused, no hook); plan updates as observations and span
// events; a crash mid-session; cancellation through
// session/cancel; structured output read strictly; and no agent process left after a run.
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {validateAgentSettings} from '../../../src/agents/validate-agent-settings.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {acpWorkflowSource} from '../../servers/acp/workflow-source.ts';
import {type McpHttpTestServer, SERVE_SCRIPT, startMcpHttpServer} from '../../servers/mcp/index.ts';

const agentScript = new URL('../../servers/acp/test-agent.ts', import.meta.url).pathname;
let project: TempProject;
let remote: McpHttpTestServer;
let pidFile: string;
let lastRunDirectory: string;
let tokenFile: string;

function agentYaml(name: string, extra: Record<string, string>, lines: string[] = []): string {
  const env = Object.entries({ACP_TEST_PID_FILE: pidFile, ...extra})
    .map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`)
    .join('\n');
  return [
    `  ${name}:`,
    '    harness: acp',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(agentScript)}]`,
    '    env:',
    env,
    ...lines.map((line) => `    ${line}`),
  ].join('\n');
}

before(async () => {
  project = await createTempProject('stratos-agent-acp-');
  pidFile = join(project.home, 'acp-agent.pid');
  remote = await startMcpHttpServer('counter');
  tokenFile = join(project.home, 'token.txt');
  await writeFile(tokenFile, 'one', {mode: 0o600});
  const yaml = `mcp:
  servers:
    web:
      type: http
      url: ${remote.url}
      headers:
        X-Test: '{env:ACP_HEADER}'
    rotating:
      type: http
      url: ${remote.url}
      headers:
        X-Token: '{file:${tokenFile}}'
    local:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
agents:
${agentYaml('basic', {ACP_TEST_SECRET: '{env:ACP_SOURCE}', ACP_TEST_MODELS: '1'}, ['model: large', 'systemPrompt: Be brief.', 'allowedMcps: []'])}
${agentYaml('servers', {}, ['allowedMcps: [web, local]'])}
${agentYaml('nohttp', {ACP_TEST_NO_HTTP_MCP: '1'}, ['allowedMcps: [web]'])}
${agentYaml('nomodel', {}, ['model: large', 'allowedMcps: []'])}
${agentYaml('reloading', {ACP_TEST_LOAD: '1'}, ['allowedMcps: [rotating]'])}
${agentYaml('stale', {}, ['allowedMcps: [rotating]'])}
  missing:
    harness: acp
    command: /nonexistent/acp-agent
    allowedMcps: []
`;
  await project.writeWorkflow('acp-agents', {
    'workflow.yaml': manifest('acp-agents', yaml),
    'workflow.ts': acpWorkflowSource,
  });
  const build = await project.cli(['build', 'acp-agents', '--json'], {env: {ACP_HEADER: 'h1'}});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  await remote?.close();
  await project?.remove();
});

interface RunOptions {
  agent?: string;
  hook?: 'none' | 'allow' | 'deny' | 'modify' | 'throw';
  structured?: boolean;
  cancelOnTool?: string;
}

async function run(prompts: string[], options: RunOptions = {}) {
  const input = {
    agent: options.agent ?? 'basic',
    prompts,
    hook: options.hook ?? 'none',
    structured: options.structured ?? false,
    cancelOnTool: options.cancelOnTool ?? '',
  };
  const result = await project.cli(['run', 'acp-agents', '--json', '--input', JSON.stringify(input)], {
    env: {ACP_SOURCE: 'from-the-environment', ACP_HEADER: 'h1'},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  lastRunDirectory = result.json.data.runDirectory;
  return result.json.data.output as {
    replies: unknown[];
    events: string[];
    calls: {nativeName: string; input: Record<string, unknown>}[];
    error: {code: string; message: string} | null;
  };
}

/** The test agent of the last run has exited. */
async function assertAgentGone(): Promise<void> {
  const pid = Number(await readFile(pidFile, 'utf8'));
  assert.throws(() => process.kill(pid, 0), {code: 'ESRCH'}, 'the ACP agent process outlived its run');
}

test('acp: one session per agent; later executes are further prompts; settings reach the agent', async () => {
  const output = await run(['hello', 'describe']);
  assert.equal(output.error, null);
  assert.equal(output.replies[0], 'echo: Be brief.\n\nhello');
  const report = JSON.parse(output.replies[1] as string);
  assert.equal(report.cwd, project.cwd);
  assert.equal(report.firstPrompt, 'Be brief.\n\nhello');
  assert.equal(report.secretHash, createHash('sha256').update('from-the-environment').digest('hex'));
  assert.equal(report.model, 'large');
  assert.deepEqual(report.mcpServers, []);
  // The turn's usage, as the agent reported it in its prompt response.
  assert.ok(output.events.includes('usage'), output.events.join());
  await assertAgentGone();
});

test('acp: MCP servers become session servers; an agent without HTTP MCP support is refused', async () => {
  const output = await run(['describe'], {agent: 'servers'});
  assert.equal(output.error, null);
  const servers = JSON.parse(output.replies[0] as string).mcpServers;
  assert.deepEqual(
    servers.map((server: {name: string; type?: string}) => [server.name, server.type ?? 'stdio']),
    [
      ['web', 'http'],
      ['local', 'stdio'],
    ],
  );
  assert.deepEqual(servers[0].headers, [{name: 'X-Test', value: 'h1'}]);
  const refused = await run(['describe'], {agent: 'nohttp'});
  assert.equal(refused.error?.code, 'STRATOS_AGENT_INIT_FAILED');
  assert.match(refused.error!.message, /does not advertise HTTP MCP support/);
});

test('acp: refreshed HTTP headers reach the session through session/load; without it the turn fails', async () => {
  await writeFile(tokenFile, 'one');
  const output = await run(['describe', `write file ${tokenFile} two`, 'describe'], {agent: 'reloading'});
  assert.equal(output.error, null);
  const [before, , after] = output.replies.map((reply) =>
    reply === 'written' ? {} : JSON.parse(reply as string),
  );
  assert.deepEqual(before.mcpServers[0].headers, [{name: 'X-Token', value: 'one'}]);
  assert.deepEqual(after.mcpServers[0].headers, [{name: 'X-Token', value: 'two'}]);
  assert.equal(after.loads, 1);
  await writeFile(tokenFile, 'one');
  const stale = await run(['describe', `write file ${tokenFile} three`, 'describe'], {agent: 'stale'});
  assert.equal(stale.replies.length, 2);
  assert.equal(stale.error?.code, 'STRATOS_AGENT_RUN_FAILED');
  assert.match(stale.error!.message, /does not advertise loadSession/);
  await writeFile(tokenFile, 'one');
});

test('acp: a permission request runs the beforeTool hook: allow, deny with feedback, modify refused', async () => {
  const allowed = await run(['use the tool'], {hook: 'allow'});
  assert.equal(allowed.error, null);
  assert.equal(allowed.replies[0], 'the tool ran');
  assert.deepEqual(allowed.calls[0], {nativeName: 'write_note', input: {path: 'note.txt', text: 'hello'}});
  assert.ok(allowed.events.includes('tool.start') && allowed.events.includes('tool.end:true:'));
  // The tool call is a span of the run, named after the agent's tool.
  const records = await readFile(join(lastRunDirectory, 'events.jsonl'), 'utf8');
  assert.match(records, /execute_tool write_note/);
  const denied = await run(['use the tool'], {hook: 'deny'});
  assert.equal(denied.replies[0], 'the tool was denied: not this file');
  assert.ok(denied.events.includes('tool.end:false:deny'), denied.events.join());
  const modified = await run(['use the tool'], {hook: 'modify'});
  assert.equal(modified.error?.code, 'STRATOS_AGENT_HOOK_UNSUPPORTED');
  const thrown = await run(['use the tool'], {hook: 'throw'});
  assert.equal(thrown.error?.code, 'STRATOS_AGENT_HOOK_FAILED');
  const unhooked = await run(['use the tool']);
  assert.equal(unhooked.replies[0], 'the tool ran');
  await assertAgentGone();
});

test('acp: plan updates are observed and recorded on the agent span, each with every entry', async () => {
  const output = await run(['make a plan']);
  assert.equal(output.error, null);
  assert.equal(output.replies[0], 'planned');
  assert.deepEqual(
    output.events.filter((event) => event === 'plan'),
    ['plan', 'plan'],
  );
  const records = (await readFile(join(lastRunDirectory, 'events.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const plans = records.filter((record) => record.name === 'agent.plan');
  assert.deepEqual(
    plans.map((plan) => [
      plan.attributes['stratos.plan.entries'],
      plan.attributes['stratos.plan.statuses'],
      plan.attributes['stratos.plan.priorities'],
    ]),
    [
      [
        ['Read the code', 'Write the test'],
        ['in_progress', 'pending'],
        ['high', 'medium'],
      ],
      [
        ['Read the code', 'Write the test'],
        ['completed', 'in_progress'],
        ['high', 'medium'],
      ],
    ],
    JSON.stringify(plans),
  );
  // On the agent span of the execute.
  const agentSpans = records.filter(
    (record) => record.type === 'operation.end' && record.kind === 'agent.execute',
  );
  assert.equal(agentSpans.length, 1);
  assert.ok(plans.every((plan) => plan.spanId === agentSpans[0].spanId));
  await assertAgentGone();
});

test('acp: a crash mid-session fails the turn with what the agent wrote to stderr', async () => {
  const output = await run(['hello', 'crash']);
  assert.equal(output.replies.length, 1);
  assert.equal(output.error?.code, 'STRATOS_AGENT_RUN_FAILED');
  assert.match(output.error!.message, /crashing on purpose/);
  await assertAgentGone();
});

test('acp: cancel() ends the turn through session/cancel and the process with the run', async () => {
  const output = await run(['wait for cancel'], {cancelOnTool: 'Long task'});
  assert.equal(output.error?.code, 'STRATOS_AGENT_CANCELLED');
  await assertAgentGone();
});

test('acp: structured output is one JSON reply, validated strictly', async () => {
  const ok = await run(['reply json {"answer":"yes"}'], {structured: true});
  assert.deepEqual(ok.replies, [{answer: 'yes'}]);
  const prose = await run(['reply json the answer is yes'], {structured: true});
  assert.equal(prose.error?.code, 'STRATOS_AGENT_OUTPUT_MISSING');
  const wrong = await run(['reply json {"answer":1}'], {structured: true});
  assert.equal(wrong.error?.code, 'STRATOS_AGENT_OUTPUT_INVALID');
});

test('acp: a model the agent does not offer, and a command that is not installed, fail at start', async () => {
  const model = await run(['hello'], {agent: 'nomodel'});
  assert.equal(model.error?.code, 'STRATOS_AGENT_INIT_FAILED');
  assert.match(model.error!.message, /offers no model choice/);
  const missing = await run(['hello'], {agent: 'missing'});
  assert.equal(missing.error?.code, 'STRATOS_AGENT_INIT_FAILED');
  assert.match(missing.error!.message, /was not found/);
});

test('acp: settings are validated with the field they are about', () => {
  const issues = (settings: Record<string, unknown>) =>
    validateAgentSettings({name: 'a', settings, mcpServers: []}).map((issue) => [issue.field, issue.code]);
  assert.deepEqual(issues({harness: 'acp', command: 'gemini', args: ['--experimental-acp']}), []);
  assert.deepEqual(issues({harness: 'acp'}), [['command', 'STRATOS_AGENT_CONFIG_INVALID']]);
  assert.deepEqual(issues({harness: 'acp', command: 'x', args: 'y', env: {A: 1}}), [
    ['args', 'STRATOS_AGENT_CONFIG_INVALID'],
    ['env', 'STRATOS_AGENT_CONFIG_INVALID'],
  ]);
  assert.deepEqual(issues({harness: 'acp', command: 'x', models: ['openai/gpt-5'], effort: 'high'}), [
    ['models', 'STRATOS_AGENT_CONFIG_INVALID'],
    ['effort', 'STRATOS_AGENT_CONFIG_INVALID'],
  ]);
  assert.deepEqual(issues({harness: 'codex', command: 'x'}), [['command', 'STRATOS_AGENT_CONFIG_INVALID']]);
});
