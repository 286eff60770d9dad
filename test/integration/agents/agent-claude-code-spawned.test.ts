// Claude Code's spawned work in telemetry, end to end: the real CLI runs a workflow whose agent makes the real
// claude binary start a sub-agent with its Agent tool (a background task), against the scripted Anthropic server,
// traces written by a file exporter. The sub-agent's tool call is held back until the agent's next prompt runs,
// so the work arrives during a later prompt and must still hang under the tool call that spawned it. A manual
// compaction is a span of the prompt that asked for it.
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {readFileSpans} from '../../helpers/spans.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {waitFor} from '../../helpers/wait-for.ts';
import {
  type AnthropicServer,
  type AnthropicTurn,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ReceivedSpan, renderSpanTree} from '../../servers/otlp/index.ts';

let anthropic: AnthropicServer;
let project: TempProject;
let home: HarnessHome;

const workflowTs = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({mode: z.enum(['task', 'compact']).describe('Scenario')}),
  output: z.object({answers: z.array(z.string()).describe('Answers')}),
  async run({mode}) {
    let taskEnded = () => {};
    const ended = new Promise<void>((resolve) => {
      taskEnded = resolve;
    });
    const agent = createAgent('claude', {
      onEvent: (event) => {
        if (event.type === 'task.end') taskEnded();
      },
    });
    if (mode === 'compact') return {answers: [await agent.execute('HELLO first'), await agent.execute('/compact')]};
    const first = await agent.execute('FIRST start the sub-agent');
    const second = await agent.execute('SECOND prompt');
    // The background task reports its end through onEvent; the run waits for it (the test's timeout bounds it).
    await ended;
    return {answers: [first, second]};
  },
});
`;

/** The sub-agent's requests: its conversation begins with the prompt the Agent tool call gave it. */
const isSubagent = (turn: AnthropicTurn) => JSON.stringify(turn.body.messages?.[0] ?? '').includes('SUBTASK');

/** Waits (no timer assumption: polls until the state is reached, bounded generously) for a conversation state. */
const until = (predicate: () => boolean) =>
  waitFor(predicate, {timeoutMs: 120_000, intervalMs: 25, what: 'the awaited conversation state'});

before(async () => {
  anthropic = await startAnthropicServer(async (turn) => {
    if (!isMainTurn(turn)) return {text: 'SUMMARY of the conversation'};
    if (isSubagent(turn)) {
      if (resultOf(turn, 'Bash') !== undefined) return {text: 'sub done'};
      // Held until the agent's next prompt is at the server: the sub-agent works during that later prompt.
      await until(() => anthropic.turns().some((t) => t.lastText.includes('SECOND')));
      return {toolUse: {name: 'Bash', input: {command: 'echo sub-hello', description: 'Echo a word'}}};
    }
    if (turn.lastText.includes('SECOND')) {
      // Answered only once the sub-agent's tool call has run, so it ran while this prompt was open.
      await until(() => anthropic.turns().some((t) => isSubagent(t) && resultOf(t, 'Bash') !== undefined));
      return {text: 'second done'};
    }
    if (turn.lastText.includes('FIRST'))
      return toolCall(turn, 'Agent', {
        description: 'echo job',
        prompt: 'SUBTASK run the echo command',
        subagent_type: 'general-purpose',
      });
    if (resultOf(turn, 'Agent') !== undefined) return {text: 'first done'};
    if (turn.lastText.includes('HELLO')) return {text: 'hello back'};
    return {text: 'noted'};
  });
  home = await createHarnessHome({anthropicUrl: anthropic.url});
  project = await createTempProject('stratos-spawned-');
  await project.writeWorkflow('spawned', {
    'workflow.yaml': manifest(
      'spawned',
      `agents:
  claude:
    harness: claude-code
telemetry:
  exporters:
    - type: file
      path: traces.jsonl
`,
    ),
    'workflow.ts': workflowTs,
  });
  const build = await project.cli(['build', 'spawned', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a harness process outlived its run');
});

after(async () => {
  await anthropic?.close();
  await project?.remove();
  await home?.remove();
});

async function run(mode: 'task' | 'compact') {
  const input = JSON.stringify({mode});
  const result = await project.cli(['run', 'spawned', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(result.json.data.telemetryWarnings ?? [], []);
  const data = result.json.data as {executionId: string; output: {answers: string[]}};
  const traces = join(project.projectRoot, 'spawned', 'traces.jsonl');
  return {data, spans: await readFileSpans(traces, data.executionId)};
}

const byStart = (a: ReceivedSpan, b: ReceivedSpan) =>
  BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1;

test('Claude Code: a background sub-agent is a task span under its Agent tool call, its later work under it', async () => {
  const {data, spans} = await run('task');
  assert.deepEqual(data.output.answers, ['first done', 'second done']);
  const tree = renderSpanTree(spans);
  const agents = spans.filter((s) => s.name === 'agent claude').sort(byStart);
  assert.equal(agents.length, 2, tree.join('\n'));
  const [first, second] = agents as [ReceivedSpan, ReceivedSpan];
  const childrenOf = (span: ReceivedSpan) =>
    spans.filter((s) => s.parentSpanId === span.spanId).sort(byStart);

  // The first prompt: its model calls, the Agent tool call, and under it the task with the sub-agent's tool call.
  const sub = (span: ReceivedSpan, depth: number): string[] =>
    childrenOf(span).flatMap((child) => [`${'  '.repeat(depth)}${child.name}`, ...sub(child, depth + 1)]);
  assert.deepEqual(
    sub(first, 0),
    [
      'start claude-code',
      '  load @anthropic-ai/claude-agent-sdk',
      '  check authentication',
      '  start claude-code session',
      'chat claude-code',
      'execute_tool Agent',
      '  task echo job',
      '    execute_tool Bash',
      'chat claude-code',
    ],
    tree.join('\n'),
  );
  // The second prompt holds its own model calls only: the sub-agent's work is not moved onto it.
  const secondChildren = childrenOf(second);
  assert.ok(secondChildren.length > 0);
  assert.ok(
    secondChildren.every((s) => s.name === 'chat claude-code'),
    tree.join('\n'),
  );

  const tool = spans.find((s) => s.name === 'execute_tool Agent')!;
  const task = spans.find((s) => s.name === 'task echo job')!;
  const bash = spans.find((s) => s.name === 'execute_tool Bash')!;
  assert.equal(task.attributes['stratos.operation.kind'], 'agent.task');
  assert.equal(task.attributes['gen_ai.operation.name'], 'invoke_agent');
  assert.equal(task.attributes['gen_ai.agent.name'], 'general-purpose');
  assert.equal(task.attributes['stratos.task.background'], true);
  assert.equal(task.attributes['stratos.task.status'], 'completed');
  assert.equal(task.attributes['stratos.outcome'], 'ok');
  assert.equal(task.attributes['gen_ai.tool.call.id'], tool.attributes['gen_ai.tool.call.id']);
  // A background task outlives its tool call (which returned at once) and the prompt that started it.
  assert.ok(BigInt(task.endTimeUnixNano) > BigInt(tool.endTimeUnixNano));
  assert.ok(BigInt(task.endTimeUnixNano) > BigInt(first.endTimeUnixNano));
  // The sub-agent's tool call ran during the second prompt, yet sits under the first prompt's task.
  assert.ok(BigInt(bash.startTimeUnixNano) > BigInt(second.startTimeUnixNano));
  assert.ok(BigInt(bash.startTimeUnixNano) > BigInt(first.endTimeUnixNano));
  assert.equal(bash.attributes['stratos.outcome'], 'ok');
  assert.equal(bash.attributes['stratos.tool.origin'], tool.attributes['gen_ai.tool.call.id']);
  assert.equal(
    bash.attributes['gen_ai.tool.call.arguments'],
    JSON.stringify({command: 'echo sub-hello', description: 'Echo a word'}),
  );
  // The sub-agent's tool result, as Claude Code reported it (the command's output).
  assert.match(String(bash.attributes['gen_ai.tool.call.result']), /"stdout":"sub-hello/);
  // The sub-agent's model responses are events of the task (only their end is observed): one asked for the
  // command, one answered after it.
  const models = task.events.filter((e) => e.name === 'agent.model');
  assert.equal(models.length, 2, JSON.stringify(task.events));
  const requests = anthropic.turns().filter(isSubagent);
  assert.equal(models[0]!.attributes['gen_ai.response.model'], requests[0]!.body.model);
  // No model span anywhere is the sub-agent's: every chat span is a direct child of an agent span.
  for (const chat of spans.filter((s) => s.name.startsWith('chat ')))
    assert.ok(agents.some((a) => a.spanId === chat.parentSpanId));

  // The run's own records (`stratos runs show`) hold the same nesting.
  const shown = await project.cli(['runs', 'show', data.executionId, '--json'], {env: home.env});
  assert.equal(shown.exitCode, 0, shown.stdout + shown.stderr);
  interface Node {
    kind: string;
    name: string;
    status: string;
    children?: Node[];
  }
  const firstAgent = (shown.json.data.tree[0].children as Node[]).find((n) => n.kind === 'agent.execute')!;
  const agentTool = firstAgent.children!.find((n) => n.name === 'execute_tool Agent')!;
  const taskNode = agentTool.children!.find((n) => n.kind === 'agent.task')!;
  assert.equal(taskNode.status, 'ok');
  assert.deepEqual(
    taskNode.children!.filter((n) => n.kind === 'agent.tool').map((n) => [n.name, n.status]),
    [['execute_tool Bash', 'ok']],
  );
});

test('Claude Code: a compaction is a span of the prompt that compacted, with its token counts', async () => {
  const {data, spans} = await run('compact');
  assert.equal(data.output.answers[0], 'hello back');
  const agents = spans.filter((s) => s.name === 'agent claude').sort(byStart);
  assert.equal(agents.length, 2);
  const compaction = spans.find((s) => s.name === 'compact conversation');
  assert.ok(compaction, renderSpanTree(spans).join('\n'));
  assert.equal(compaction.parentSpanId, agents[1]!.spanId);
  assert.equal(compaction.attributes['stratos.operation.kind'], 'agent.compaction');
  assert.equal(compaction.attributes['stratos.compaction.trigger'], 'manual');
  assert.equal(typeof compaction.attributes['stratos.compaction.pre_tokens'], 'number');
  assert.equal(compaction.attributes['stratos.outcome'], 'ok');
});
