// Agent telemetry end to end: the real CLI runs a workflow with a direct MCP call and an agent turn that calls an
// MCP tool, with the real claude (and codex) binary against scripted model servers, exported to a real OTLP
// receiver. Asserts the exact span tree (model and tool calls siblings under the agent span), token usage equal
// to what the scripted server reported and none where nothing was reported, and the `stratos runs show` tree.
import assert from 'node:assert/strict';
import {after, afterEach, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../servers/mcp/index.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../servers/models/harness-env.ts';
import {type ResponsesServer, startResponsesServer} from '../servers/models/openai-responses.ts';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  renderSpanTree,
  startOtlpReceiver,
} from '../servers/otlp/index.ts';

let anthropic: AnthropicServer;
let openai: ResponsesServer;
let receiver: OtlpReceiver;
let project: TempProject;
let home: HarnessHome;

const workflowTs = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createCounter from './generated/mcp/counter.js';

export default workflow({
  input: z.strictObject({
    agent: z.enum(['claude', 'codex']).describe('Which agent runs'),
    deny: z.boolean().optional().describe('Deny the echo tool in a before-tool hook'),
  }),
  output: z.object({direct: z.string().describe('Direct call'), text: z.string().describe('Agent answer')}),
  async run({agent, deny}) {
    const counter = await createCounter();
    const echoed = await counter.echo({text: 'direct'});
    const hooks = deny ? {beforeTool: () => ({action: 'deny' as const, feedback: 'NOT-NOW'})} : {};
    const text = await createAgent(agent, {hooks}).execute('MCP call the echo tool');
    return {direct: echoed.structuredContent.text, text};
  },
});
`;

before(async () => {
  anthropic = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    const echo = resultOf(turn, 'mcp__counter__echo');
    if (echo !== undefined) return {text: `echo said ${echo.content}${echo.isError ? ' (error)' : ''}`};
    return toolCall(turn, 'mcp__counter__echo', {text: 'hi'});
  });
  openai = await startResponsesServer((turn) =>
    turn.toolResults[0] !== undefined
      ? {text: `echo said ${turn.toolResults[0].output}`}
      : {toolCall: {name: 'echo', namespace: 'mcp__counter', arguments: {text: 'hi'}}},
  );
  receiver = await startOtlpReceiver();
  home = await createHarnessHome({anthropicUrl: anthropic.url, openaiUrl: openai.url});
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

/** The spans of one run (its trace): the receiver holds the spans of every run of this file. */
async function spansOf(executionId: string, count: number): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const spans = receiver.spans().filter((s) => s.resource['stratos.root_execution.id'] === executionId);
    if (spans.length >= count || Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
    '  connect counter',
    '  tools/call echo',
    '  agent claude',
    '    start claude-code',
    '    chat claude-code',
    '    execute_tool ToolSearch',
    '    chat claude-code',
    '    execute_tool mcp__counter__echo',
    '    chat claude-code',
  ];
  const spans = await spansOf(data.executionId, expected.length);
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
  const spans = await spansOf(data.executionId, 9);
  const tool = spans.find((s) => s.name === 'execute_tool mcp__counter__echo')!;
  assert.equal(tool.parentSpanId, spans.find((s) => s.name === 'agent claude')!.spanId);
  assert.equal(tool.attributes['stratos.outcome'], 'error');
  assert.equal(tool.attributes['error.type'], 'ToolDenied');
  assert.equal(tool.attributes['stratos.tool.decision'], 'deny');
  assert.match(String(tool.attributes['stratos.error.message']), /NOT-NOW/);
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
    '  connect counter',
    '  tools/call echo',
    '  agent codex',
    '    start codex',
    '    execute_tool mcp__counter__echo',
  ];
  const spans = await spansOf(data.executionId, expected.length);
  assert.deepEqual(renderSpanTree(spans), expected);
  assert.equal(spans.length, expected.length, 'Codex exposes no model-call boundaries: no chat spans');

  const agent = spans.find((s) => s.name === 'agent codex')!;
  const tool = spans.find((s) => s.name === 'execute_tool mcp__counter__echo')!;
  assert.equal(tool.parentSpanId, agent.spanId);
  assert.equal(tool.attributes['mcp.server'], 'counter');
  assert.equal(tool.attributes['mcp.tool'], 'echo');
  assert.equal(tool.attributes['stratos.outcome'], 'ok');
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
