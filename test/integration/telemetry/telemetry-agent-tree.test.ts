// Agent telemetry end to end: the real CLI runs a workflow with a direct MCP call and an agent turn that calls an
// MCP tool, with the real claude (and codex) binary against scripted model servers, exported to a real OTLP
// receiver. Asserts the exact span tree (model and tool calls siblings under the agent span, start-up phases under
// the start span, preparation under the workflow span), token usage equal to what the scripted server reported and
// none where nothing was reported, tool arguments and results (redacted, capped), the agent's configuration and
// system prompt, and the `stratos runs show` tree.
import assert from 'node:assert/strict';
import {after, afterEach, before, test} from 'node:test';
import {collectSpans} from '../../helpers/spans.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ResponsesServer, startResponsesServer} from '../../servers/models/openai-responses.ts';
import {type OtlpReceiver, renderSpanTree, startOtlpReceiver} from '../../servers/otlp/index.ts';

let anthropic: AnthropicServer;
let openai: ResponsesServer;
let receiver: OtlpReceiver;
let project: TempProject;
let home: HarnessHome;
/** A credential of the process environment (a secret by its name): never recorded. */
const secret = 'sk-agent-tree-0123456789abcdef';

const workflowTs = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createCounter from './generated/mcp/counter.js';

export default workflow({
  input: z.strictObject({
    agent: z.enum(['claude', 'codex']).describe('Which agent runs'),
    deny: z.boolean().optional().describe('Deny the echo tool in a before-tool hook'),
    long: z.boolean().optional().describe('Echo a long text holding a secret'),
    shell: z.boolean().optional().describe('Run a shell command instead'),
  }),
  output: z.object({direct: z.string().describe('Direct call'), text: z.string().describe('Agent answer')}),
  async run({agent, deny, long, shell}) {
    const counter = await createCounter();
    const echoed = await counter.echo({text: 'direct'});
    const hooks = deny ? {beforeTool: () => ({action: 'deny' as const, feedback: 'NOT-NOW'})} : {};
    const text = await createAgent(agent, {hooks}).execute(shell ? 'Run a SHELL command' : long ? 'MCP call the echo tool with LONG text' : 'MCP call the echo tool');
    return {direct: echoed.structuredContent.text, text};
  },
});
`;

before(async () => {
  anthropic = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    const echo = resultOf(turn, 'mcp__counter__echo');
    if (echo !== undefined) return {text: `echo said ${echo.content}${echo.isError ? ' (error)' : ''}`};
    return toolCall(turn, 'mcp__counter__echo', {
      text: turn.transcript.includes('LONG') ? `${secret} ${'x'.repeat(20_000)}` : 'hi',
    });
  });
  openai = await startResponsesServer((turn) => {
    if (turn.toolResults[0] !== undefined) return {text: `echo said ${turn.toolResults[0].output}`};
    if (turn.transcript.includes('SHELL')) {
      return {toolCall: {name: 'exec_command', arguments: {cmd: 'echo shell-said-hi'}}};
    }
    return {toolCall: {name: 'echo', namespace: 'mcp__counter', arguments: {text: 'hi'}}};
  });
  receiver = await startOtlpReceiver();
  home = await createHarnessHome({anthropicUrl: anthropic.url, openaiUrl: openai.url});
  home.env.AGENT_TREE_API_TOKEN = secret;
  project = await createTempProject('stratos-agent-tree-');
  await project.writeWorkflow('agent-tree', {
    'workflow.yaml': manifest(
      'agent-tree',
      `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
agents:
  claude:
    harness: claude-code
    systemPrompt: Answer in one short sentence.
    effort: low
    disallowedTools: [web search]
  codex:
    harness: codex
    model: gpt-test
    disallowedTools: [web search]
telemetry:
  exporters:
    - type: otlp
      protocol: http/json
      endpoint: ${receiver.httpUrl}/v1/traces
`,
    ),
    'workflow.ts': workflowTs,
  });
  const build = await project.cli(['build', 'agent-tree', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a harness or MCP process outlived its run');
});

after(async () => {
  await anthropic?.close();
  await openai?.close();
  await receiver?.close();
  await project?.remove();
  await home?.remove();
});

async function run(agent: 'claude' | 'codex', deny = false) {
  const input = JSON.stringify({agent, deny});
  const result = await project.cli(['run', 'agent-tree', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.data.output.direct, 'direct');
  // Codex prefixes the tool output with its own timing line.
  if (deny) assert.match(result.json.data.output.text, /^echo said .*NOT-NOW \(error\)$/);
  else assert.match(result.json.data.output.text, /^echo said .*\{"text":"hi"\}$/s);
  assert.deepEqual(result.json.data.telemetryWarnings ?? [], []);
  return result.json.data as {executionId: string; runDirectory: string};
}

const usageKeys = (attributes: Record<string, unknown>) =>
  Object.keys(attributes)
    .filter((key) => key.startsWith('gen_ai.usage.'))
    .sort();

test('Claude Code: each model response and tool call is its own span, siblings under the agent span', async () => {
  const requestsBefore = anthropic.turns().filter(isMainTurn).length;
  const data = await run('claude');
  // Claude Code loads the deferred MCP tool with its ToolSearch tool first: that is a model call and a tool
  // call of its own, recorded as observed.
  const expected = [
    'workflow agent-tree',
    '  prepare agent-tree',
    '  connect counter',
    '  tools/call echo',
    '  agent claude',
    '    start claude-code',
    '      load @anthropic-ai/claude-agent-sdk',
    '      check authentication',
    '      start claude-code session',
    '    chat claude-code',
    '    execute_tool ToolSearch',
    '    chat claude-code',
    '    execute_tool mcp__counter__echo',
    '    chat claude-code',
  ];
  const spans = await collectSpans(receiver, data.executionId, expected.length);
  assert.deepEqual(renderSpanTree(spans), expected);
  assert.equal(spans.length, expected.length, 'no turn-wide model span and nothing else');

  const agent = spans.find((s) => s.name === 'agent claude')!;
  assert.equal(agent.attributes['gen_ai.operation.name'], 'invoke_agent');
  assert.deepEqual(usageKeys(agent.attributes), [], 'the agent span reports no usage of its own');
  assert.deepEqual(agent.events, [], 'turn usage is not recorded again when model calls reported theirs');
  // Prompts and responses as the GenAI conventions carry message content.
  assert.deepEqual(JSON.parse(String(agent.attributes['gen_ai.input.messages'])), [
    {role: 'user', parts: [{type: 'text', content: 'MCP call the echo tool'}]},
  ]);
  assert.match(String(agent.attributes['gen_ai.output.messages']), /echo said/);
  // Start-up is its own span, before the first model call and apart from the turn.
  const start = spans.find((s) => s.name === 'start claude-code')!;
  assert.equal(start.parentSpanId, agent.spanId);
  assert.equal(start.attributes['stratos.operation.kind'], 'agent.start');
  // Its phases are spans of their own, in order, within it.
  const phases = spans.filter((s) => s.parentSpanId === start.spanId);
  assert.deepEqual(
    phases.map((s) => s.attributes['stratos.operation.kind']),
    ['agent.start.sdk', 'agent.start.authentication', 'agent.start.session'],
  );
  for (const phase of phases) {
    assert.equal(phase.attributes['stratos.outcome'], 'ok');
    assert.ok(BigInt(phase.startTimeUnixNano) >= BigInt(start.startTimeUnixNano), phase.name);
    assert.ok(BigInt(phase.endTimeUnixNano) <= BigInt(start.endTimeUnixNano), phase.name);
  }
  // The agent's configuration and its system prompt as the harness got it, GenAI names where they exist.
  assert.equal(agent.attributes['gen_ai.agent.name'], 'claude');
  assert.equal(agent.attributes['stratos.agent.harness'], 'claude-code');
  assert.equal(agent.attributes['gen_ai.provider.name'], 'anthropic');
  assert.equal(agent.attributes['gen_ai.request.model'], undefined, 'the harness default: no model recorded');
  assert.equal(agent.attributes['stratos.agent.effort'], 'low');
  assert.equal(agent.attributes['gen_ai.output.type'], 'text');
  assert.deepEqual(agent.attributes['stratos.agent.allowed_mcps'], ['counter']);
  assert.equal(agent.attributes['stratos.agent.allowed_tools'], undefined, 'not configured: all');
  assert.deepEqual(agent.attributes['stratos.agent.disallowed_tools'], ['web search']);
  assert.deepEqual(agent.attributes['stratos.agent.removed_tools'], ['WebSearch']);
  assert.equal(agent.attributes['stratos.agent.working_directory'], project.cwd);
  assert.equal(agent.attributes['stratos.agent.worktree.name'], undefined);
  assert.deepEqual(JSON.parse(String(agent.attributes['gen_ai.system_instructions'])), [
    {type: 'text', content: 'Answer in one short sentence.'},
  ]);
  // Preparation (here the freshness check of the build made before) is the first span under the workflow.
  const workflowRoot = spans.find((s) => s.name === 'workflow agent-tree')!;
  const prepare = spans.find((s) => s.name === 'prepare agent-tree')!;
  assert.equal(prepare.parentSpanId, workflowRoot.spanId);
  assert.equal(prepare.attributes['stratos.operation.kind'], 'workflow.prepare');
  assert.equal(prepare.attributes['stratos.build.status'], 'reused');
  assert.equal(
    prepare.startTimeUnixNano,
    workflowRoot.startTimeUnixNano,
    'the run starts with its preparation',
  );
  // The direct MCP call carries its arguments and result; the workflow span its catalog text and version.
  const direct = spans.find((s) => s.name === 'tools/call echo')!;
  assert.equal(direct.attributes['gen_ai.tool.call.arguments'], '{"text":"direct"}');
  assert.match(
    String(direct.attributes['gen_ai.tool.call.result']),
    /"structuredContent":\{"text":"direct"\}/,
  );
  const workflowSpan = spans.find((s) => s.name === 'workflow agent-tree')!;
  assert.equal(workflowSpan.attributes['stratos.workflow.short_description'], 'Test workflow agent-tree.');
  assert.equal(workflowSpan.attributes['stratos.workflow.version'], '1.0.0');

  const requests = anthropic.turns().filter(isMainTurn).slice(requestsBefore);
  const chats = spans
    .filter((s) => s.name === 'chat claude-code')
    .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  assert.equal(chats.length, requests.length, 'one model span per model request the server received');
  chats.forEach((chat, index) => {
    assert.equal(chat.parentSpanId, agent.spanId);
    assert.equal(chat.kind, 3, 'model calls are client spans');
    assert.equal(chat.attributes['stratos.operation.kind'], 'agent.model');
    assert.equal(chat.attributes['gen_ai.operation.name'], 'chat');
    assert.equal(chat.attributes['stratos.outcome'], 'ok');
    assert.equal(chat.attributes['gen_ai.request.model'], undefined, 'no model configured: none recorded');
    assert.equal(chat.attributes['gen_ai.response.model'], requests[index]!.body.model);
    // The scripted server reports input 10 (no cache) and output 5 for every response.
    assert.equal(chat.attributes['gen_ai.usage.input_tokens'], 10);
    assert.equal(chat.attributes['gen_ai.usage.output_tokens'], 5);
    assert.equal(chat.attributes['gen_ai.usage.cache_read.input_tokens'], 0);
    assert.equal(chat.attributes['gen_ai.usage.cache_creation.input_tokens'], 0);
  });

  const tool = spans.find((s) => s.name === 'execute_tool mcp__counter__echo')!;
  assert.equal(tool.parentSpanId, agent.spanId);
  assert.equal(tool.attributes['stratos.operation.kind'], 'agent.tool');
  assert.equal(tool.attributes['gen_ai.operation.name'], 'execute_tool');
  assert.equal(tool.attributes['gen_ai.tool.name'], 'mcp__counter__echo');
  assert.equal(tool.attributes['mcp.server'], 'counter');
  assert.equal(tool.attributes['mcp.tool'], 'echo');
  assert.equal(tool.attributes['gen_ai.tool.call.arguments'], '{"text":"hi"}');
  // The result as Claude Code reported it: the MCP tool's text.
  assert.equal(tool.attributes['gen_ai.tool.call.result'], '{"text":"hi"}');
  assert.match(String(tool.attributes['gen_ai.tool.call.id']), /^toolu_/);
  assert.equal(tool.attributes['stratos.outcome'], 'ok');
  for (const span of spans.filter((s) => !s.name.startsWith('chat ')))
    assert.deepEqual(usageKeys(span.attributes), [], `${span.name} reports no token usage`);

  // The tool runs between the response that asked for it and the response that read its result.
  const [, second, third] = chats;
  assert.ok(BigInt(tool.startTimeUnixNano) >= BigInt(second!.startTimeUnixNano));
  assert.ok(BigInt(tool.endTimeUnixNano) <= BigInt(third!.startTimeUnixNano));

  // `stratos runs show` reads the same records back from events.jsonl.
  const shown = await project.cli(['runs', 'show', data.executionId, '--json'], {env: home.env});
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  const [root] = shown.json.data.tree;
  const agentNode = root.children.find((n: {kind: string}) => n.kind === 'agent.execute');
  assert.deepEqual(
    agentNode.children.map((n: {kind: string; name: string; status: string; usage?: unknown}) => [
      n.kind,
      n.name,
      n.status,
      n.usage,
    ]),
    [
      ['agent.start', 'start claude-code', 'ok', undefined],
      ['agent.model', 'chat claude-code', 'ok', {inputTokens: 10, outputTokens: 5}],
      ['agent.tool', 'execute_tool ToolSearch', 'ok', undefined],
      ['agent.model', 'chat claude-code', 'ok', {inputTokens: 10, outputTokens: 5}],
      ['agent.tool', 'execute_tool mcp__counter__echo', 'ok', undefined],
      ['agent.model', 'chat claude-code', 'ok', {inputTokens: 10, outputTokens: 5}],
    ],
  );
  assert.ok(agentNode.children.every((n: {durationMs?: number}) => typeof n.durationMs === 'number'));
  assert.deepEqual(shown.json.data.usage, {inputTokens: 30, outputTokens: 15});
  const human = await project.cli(['runs', 'show', data.executionId], {env: home.env});
  assert.match(human.stdout, /agent\.model chat claude-code succeeded [\d.]+ ms {2}tokens in 10, out 5/);
  assert.match(human.stdout, /agent\.tool execute_tool mcp__counter__echo text=hi succeeded [\d.]+ ms/);
});

test('Claude Code: a tool call a before-tool hook denied is a tool span with an error outcome', async () => {
  const data = await run('claude', true);
  const spans = await collectSpans(receiver, data.executionId, 9);
  const tool = spans.find((s) => s.name === 'execute_tool mcp__counter__echo')!;
  assert.equal(tool.parentSpanId, spans.find((s) => s.name === 'agent claude')!.spanId);
  assert.equal(tool.attributes['stratos.outcome'], 'error');
  assert.equal(tool.attributes['error.type'], 'ToolDenied');
  assert.equal(tool.attributes['stratos.tool.decision'], 'deny');
  assert.match(String(tool.attributes['stratos.error.message']), /NOT-NOW/);
  assert.equal(tool.attributes['gen_ai.tool.call.result'], undefined, 'a denied call has no result');
  assert.equal(tool.status.code, 2, 'span status ERROR');
  const agent = spans.find((s) => s.name === 'agent claude')!;
  assert.equal(
    agent.attributes['stratos.outcome'],
    'ok',
    "the tool's failure does not fail the turn, nor hide",
  );
});

test('Codex: tool calls are spans; turn usage is one event, no invented model spans', async () => {
  const data = await run('codex');
  const expected = [
    'workflow agent-tree',
    '  prepare agent-tree',
    '  connect counter',
    '  tools/call echo',
    '  agent codex',
    '    start codex',
    '      load @openai/codex-sdk',
    '      check authentication',
    '      start codex session',
    '    execute_tool mcp__counter__echo',
  ];
  const spans = await collectSpans(receiver, data.executionId, expected.length);
  assert.deepEqual(renderSpanTree(spans), expected);
  assert.equal(spans.length, expected.length, 'Codex exposes no model-call boundaries: no chat spans');

  const agent = spans.find((s) => s.name === 'agent codex')!;
  const tool = spans.find((s) => s.name === 'execute_tool mcp__counter__echo')!;
  assert.equal(tool.parentSpanId, agent.spanId);
  assert.equal(tool.attributes['mcp.server'], 'counter');
  assert.equal(tool.attributes['mcp.tool'], 'echo');
  assert.equal(tool.attributes['stratos.outcome'], 'ok');
  assert.equal(tool.attributes['gen_ai.tool.call.arguments'], '{"text":"hi"}');
  // Codex reports the MCP result's content and structured content.
  assert.deepEqual(JSON.parse(String(tool.attributes['gen_ai.tool.call.result'])).structuredContent, {
    text: 'hi',
  });
  assert.equal(agent.attributes['gen_ai.request.model'], 'gpt-test');
  assert.equal(agent.attributes['gen_ai.provider.name'], 'openai');
  assert.equal(agent.attributes['gen_ai.system_instructions'], undefined, 'no system prompt configured');
  for (const span of spans)
    assert.deepEqual(usageKeys(span.attributes), [], `${span.name}: no usage attribute`);
  // Two model requests (the tool call, then the answer), each reported by the server as input 10 and output 5.
  const usage = agent.events.filter((e) => e.name === 'agent.usage');
  assert.equal(usage.length, 1);
  assert.equal(usage[0]!.attributes['gen_ai.usage.input_tokens'], 20);
  assert.equal(usage[0]!.attributes['gen_ai.usage.output_tokens'], 10);

  const shown = await project.cli(['runs', 'show', data.executionId, '--json'], {env: home.env});
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  const agentNode = shown.json.data.tree[0].children.find((n: {kind: string}) => n.kind === 'agent.execute');
  assert.deepEqual(
    agentNode.children.map((n: {kind: string; name: string; usage?: unknown}) => [n.kind, n.name, n.usage]),
    [
      ['agent.start', 'start codex', undefined],
      ['agent.tool', 'execute_tool mcp__counter__echo', undefined],
      ['event', 'agent.usage', {inputTokens: 20, outputTokens: 10}],
    ],
  );
  assert.deepEqual(shown.json.data.usage, {inputTokens: 20, outputTokens: 10});
});

test('Claude Code: tool arguments and results are redacted and cut at the attribute cap', async () => {
  const input = JSON.stringify({agent: 'claude', long: true});
  const result = await project.cli(['run', 'agent-tree', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const shown = await project.cli(['runs', 'show', result.json.data.executionId, '--json'], {env: home.env});
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  const agentNode = shown.json.data.tree[0].children.find((n: {kind: string}) => n.kind === 'agent.execute');
  const tool = agentNode.children.find((n: {name: string}) => n.name === 'execute_tool mcp__counter__echo');
  for (const key of ['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) {
    const value = String(tool.attributes[key]);
    assert.ok(!value.includes(secret), `${key} holds no secret`);
    assert.match(value, /\[REDACTED\] x{100}/, `${key} is recorded, redacted`);
    assert.match(value, /… \[\d+ more characters\]$/, `${key} is cut with a marker`);
    assert.ok(value.length < 16_384 + 40, `${key} is cut at 16,384 characters`);
  }
});

test('Codex: a shell command is a tool span with the command and its output', async () => {
  const input = JSON.stringify({agent: 'codex', shell: true});
  const result = await project.cli(['run', 'agent-tree', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const shown = await project.cli(['runs', 'show', result.json.data.executionId, '--json'], {env: home.env});
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  const agentNode = shown.json.data.tree[0].children.find((n: {kind: string}) => n.kind === 'agent.execute');
  const shell = agentNode.children.find((n: {name: string}) => n.name === 'execute_tool shell');
  assert.ok(shell, JSON.stringify(agentNode.children.map((n: {name: string}) => n.name)));
  assert.equal(shell.status, 'ok');
  assert.match(String(shell.attributes['gen_ai.tool.call.arguments']), /echo shell-said-hi/);
  assert.deepEqual(JSON.parse(String(shell.attributes['gen_ai.tool.call.result'])), {
    output: 'shell-said-hi\n',
    exitCode: 0,
  });
});
