// OpenCode agent telemetry end to end: the real CLI runs a workflow whose OpenCode agent calls an MCP tool, with
// the real opencode binary against the scripted chat completions server, exported to a real OTLP receiver. The
// model calls (OpenCode's step-start / step-finish parts) and the tool call (its tool part) are sibling spans
// under the agent span, timed as OpenCode reported them, with the token counts the scripted server reported.
import assert from 'node:assert/strict';
import {after, afterEach, before, test} from 'node:test';
import {collectSpans} from '../../helpers/spans.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ChatServer, startChatServer} from '../../servers/models/openai-chat.ts';
import {type OtlpReceiver, renderSpanTree, startOtlpReceiver} from '../../servers/otlp/index.ts';

let chat: ChatServer;
let receiver: OtlpReceiver;
let project: TempProject;
let home: HarnessHome;

const workflowTs = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({text: z.string().describe('Agent answer')}),
  async run() {
    return {text: await createAgent('coder').execute('MCP call the echo tool')};
  },
});
`;

before(async () => {
  chat = await startChatServer((turn) => {
    // OpenCode's title request offers no tools.
    if (turn.toolNames.length === 0) return {text: 'side'};
    const echo = turn.toolResults.find((r) => r.name === 'counter_echo');
    if (echo !== undefined) return {text: `echo said ${echo.output}`};
    return {toolCall: {name: 'counter_echo', arguments: {text: 'hi'}}};
  });
  receiver = await startOtlpReceiver();
  home = await createHarnessHome({openaiUrl: chat.url}, {xdg: true});
  project = await createTempProject('stratos-opencode-tree-');
  await project.writeWorkflow('opencode-tree', {
    'workflow.yaml': manifest(
      'opencode-tree',
      `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
agents:
  coder:
    harness: opencode
    model: openai/gpt-test
telemetry:
  exporters:
    - type: otlp
      protocol: http/json
      endpoint: ${receiver.httpUrl}/v1/traces
`,
    ),
    'workflow.ts': workflowTs,
  });
  const build = await project.cli(['build', 'opencode-tree', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'an OpenCode or MCP process outlived its run');
});

after(async () => {
  await chat?.close();
  await receiver?.close();
  await project?.remove();
  await home?.remove();
});

const usageKeys = (attributes: Record<string, unknown>) =>
  Object.keys(attributes).filter((key) => key.startsWith('gen_ai.usage.'));
const nanos = (value: string) => BigInt(value);

test('OpenCode: each model call and tool call is its own span, siblings under the agent span', async () => {
  const requestsBefore = chat.turns().filter((t) => t.toolNames.length > 0).length;
  const result = await project.cli(['run', 'opencode-tree', '--json', '--input', '{}'], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.data.output.text, 'echo said hi');
  assert.deepEqual(result.json.data.telemetryWarnings ?? [], []);
  const executionId: string = result.json.data.executionId;

  const expected = [
    'workflow opencode-tree',
    '  prepare opencode-tree',
    '  agent coder',
    '    start opencode',
    '      load @opencode-ai/sdk',
    '      check authentication',
    '      start opencode session',
    '    chat openai/gpt-test',
    '    execute_tool mcp__counter__echo',
    '    chat openai/gpt-test',
  ];
  const spans = await collectSpans(receiver, executionId, expected.length);
  assert.deepEqual(renderSpanTree(spans), expected);
  assert.equal(spans.length, expected.length);

  const agent = spans.find((s) => s.name === 'agent coder')!;
  assert.deepEqual(usageKeys(agent.attributes), [], 'the agent span reports no usage of its own');
  assert.deepEqual(
    agent.events.filter((e) => e.name === 'agent.usage'),
    [],
    'turn usage is not recorded again when the model calls reported theirs',
  );

  // One model span per main request the server received (the title request is not part of the session).
  const requests = chat
    .turns()
    .filter((t) => t.toolNames.length > 0)
    .slice(requestsBefore);
  const chats = spans
    .filter((s) => s.name.startsWith('chat '))
    .sort((a, b) => (nanos(a.startTimeUnixNano) < nanos(b.startTimeUnixNano) ? -1 : 1));
  assert.equal(chats.length, requests.length);
  for (const span of chats) {
    assert.equal(span.parentSpanId, agent.spanId);
    assert.equal(span.attributes['stratos.operation.kind'], 'agent.model');
    assert.equal(span.attributes['stratos.outcome'], 'ok');
    assert.equal(span.attributes['gen_ai.request.model'], 'openai/gpt-test');
    assert.equal(span.attributes['gen_ai.response.model'], 'gpt-test');
    // The scripted server reports prompt 10 and completion 5 tokens for every response.
    assert.equal(span.attributes['gen_ai.usage.input_tokens'], 10);
    assert.equal(span.attributes['gen_ai.usage.output_tokens'], 5);
  }

  const tool = spans.find((s) => s.name === 'execute_tool mcp__counter__echo')!;
  assert.equal(tool.parentSpanId, agent.spanId);
  assert.equal(tool.attributes['stratos.operation.kind'], 'agent.tool');
  assert.equal(tool.attributes['mcp.server'], 'counter');
  assert.equal(tool.attributes['mcp.tool'], 'echo');
  assert.equal(tool.attributes['gen_ai.tool.call.arguments'], '{"text":"hi"}');
  // The result as OpenCode reported it: the tool part's output (the MCP tool's text content).
  assert.equal(tool.attributes['gen_ai.tool.call.result'], 'hi');
  assert.equal(tool.attributes['stratos.outcome'], 'ok');
  assert.equal(agent.attributes['stratos.agent.harness'], 'opencode');
  assert.equal(agent.attributes['gen_ai.request.model'], 'openai/gpt-test');
  assert.deepEqual(agent.attributes['stratos.agent.allowed_mcps'], ['counter']);
  assert.deepEqual(usageKeys(tool.attributes), []);

  // Timed as OpenCode reported: the tool runs within the first step (OpenCode ends a step after the tool calls it
  // made) and before the step that reads its result; everything within the agent span.
  const [first, second] = chats;
  assert.ok(nanos(tool.startTimeUnixNano) >= nanos(first!.startTimeUnixNano));
  assert.ok(nanos(tool.endTimeUnixNano) <= nanos(first!.endTimeUnixNano));
  assert.ok(nanos(second!.startTimeUnixNano) >= nanos(tool.endTimeUnixNano));
  for (const span of [...chats, tool]) {
    assert.ok(nanos(span.startTimeUnixNano) >= nanos(agent.startTimeUnixNano), span.name);
    assert.ok(nanos(span.endTimeUnixNano) <= nanos(agent.endTimeUnixNano), span.name);
    assert.ok(nanos(span.endTimeUnixNano) >= nanos(span.startTimeUnixNano), span.name);
  }

  const shown = await project.cli(['runs', 'show', executionId, '--json'], {env: home.env});
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  const agentNode = shown.json.data.tree[0].children.find((n: {kind: string}) => n.kind === 'agent.execute');
  assert.deepEqual(
    agentNode.children.map((n: {kind: string; name: string; usage?: unknown}) => [n.kind, n.name, n.usage]),
    [
      ['agent.start', 'start opencode', undefined],
      ['agent.model', 'chat openai/gpt-test', {inputTokens: 10, outputTokens: 5}],
      ['agent.tool', 'execute_tool mcp__counter__echo', undefined],
      ['agent.model', 'chat openai/gpt-test', {inputTokens: 10, outputTokens: 5}],
    ],
  );
  assert.deepEqual(shown.json.data.usage, {inputTokens: 20, outputTokens: 10});
});
