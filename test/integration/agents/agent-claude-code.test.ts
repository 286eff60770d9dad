// The Claude Code harness end to end: the shared harness matrix (harness-matrix.ts) plus Claude Code's own cases,
// with the real claude binary against a scripted Anthropic Messages server, an isolated home, no outbound traffic.
import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {wrapModelServer} from '../../helpers/matrix-server.ts';
import {manifest} from '../../helpers/temp-project.ts';
import {
  type AnthropicReply,
  type AnthropicTurn,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome} from '../../servers/models/harness-env.ts';
import {plantClaudeProjectConfig} from '../../servers/models/project-config.ts';
import {
  defineHarnessMatrix,
  type HarnessDriver,
  type MatrixReply,
  type MatrixTurn,
} from './harness-matrix.ts';

function toMatrixTurn(turn: AnthropicTurn): MatrixTurn {
  // The newest prompt: the last text of the last user message that carries no tool results.
  const messages: {role: string; content: unknown}[] = turn.body.messages ?? [];
  const prompt = [...messages].reverse().find((m) => {
    if (m.role !== 'user') return false;
    return !Array.isArray(m.content) || !m.content.some((b: {type: string}) => b.type === 'tool_result');
  });
  const blocks =
    typeof prompt?.content === 'string' ? [{type: 'text', text: prompt.content}] : prompt?.content;
  const texts = ((blocks ?? []) as {type: string; text?: string}[]).filter((b) => b.type === 'text');
  return {
    prompt: texts.at(-1)?.text ?? '',
    transcript: turn.transcript,
    system: turn.systemText,
    toolNames: turn.toolNames,
    toolResults: turn.toolResults.map((r) => ({
      tool: r.toolName ?? '',
      output: r.content,
      isError: r.isError,
    })),
    main: isMainTurn(turn),
  };
}

function toAnthropicReply(reply: MatrixReply, turn: AnthropicTurn): AnthropicReply {
  if ('callMcp' in reply)
    return toolCall(turn, `mcp__${reply.callMcp.server}__${reply.callMcp.tool}`, reply.callMcp.args);
  if ('structured' in reply)
    return resultOf(turn, 'StructuredOutput')
      ? {text: 'done'}
      : toolCall(turn, 'StructuredOutput', reply.structured);
  if ('structuredInvalid' in reply) return {text: 'The answer is 42, in prose.'};
  if ('slow' in reply) return {text: reply.slow, chunks: 4, pauseMs: 250};
  return reply;
}

const driver: HarnessDriver = {
  harness: 'claude-code',
  apiKeyVariable: 'ANTHROPIC_API_KEY',
  async startServer(script) {
    const server = await startAnthropicServer((turn) => toAnthropicReply(script(toMatrixTurn(turn)), turn));
    return wrapModelServer(server, () => server.turns().map(toMatrixTurn));
  },
  createHome: (server) => createHarnessHome({anthropicUrl: server.url}),
  plantProjectConfig: plantClaudeProjectConfig,
  async plantUserConfig(home) {
    await writeFile(
      join(home.env.CLAUDE_CONFIG_DIR!, '.claude.json'),
      JSON.stringify({mcpServers: {usermcp: {type: 'stdio', command: 'node', args: ['-e', '']}}}),
    );
    await mkdir(join(home.env.HOME!, '.claude'), {recursive: true});
    await writeFile(
      join(home.env.HOME!, '.claude.json'),
      JSON.stringify({mcpServers: {usermcp2: {type: 'stdio', command: 'node', args: ['-e', '']}}}),
    );
  },
};

const matrix = defineHarnessMatrix(driver);

test('claude-code: disallowedTools removes built-in tools (shared and native names), keeps the others', async () => {
  assert.equal(await matrix.run('no-bash'), 'hello from the scripted model');
  const turn = matrix.server.turns().findLast((t) => t.main && t.prompt.includes('NOBASH'))!;
  assert.equal(turn.toolNames.includes('Bash'), false);
  assert.equal(turn.toolNames.includes('WebFetch'), false);
  assert.ok(turn.toolNames.includes('Read'));
});

test('claude-code: a denied call reaches the model as an error tool result with the feedback', async () => {
  assert.match(await matrix.run('hook-deny'), /DENIED-BY-HOOK.*\(error\)/s);
});

test('claude-code: a parent agent and a child agent share the run admission limit (maxActive 1)', async () => {
  const agents = 'agents:\n  worker:\n    harness: claude-code\n    allowedMcps: []\n';
  const agentWorkflow = (
    body: string,
    imports = '',
  ) => `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
${imports}
export default workflow({
  input: z.strictObject({}),
  output: z.object({texts: z.array(z.string()).describe('The agent answers')}),
  async run() {
    ${body}
  },
});
`;
  await matrix.project.writeWorkflow('admit-child', {
    'workflow.yaml': manifest('admit-child', agents),
    'workflow.ts': agentWorkflow(
      "return {texts: [await createAgent('worker').execute('SLOW ADMIT-child')]};",
    ),
  });
  await matrix.project.writeWorkflow('admit-parent', {
    'workflow.yaml': manifest('admit-parent', agents),
    'workflow.ts': agentWorkflow(
      `const [own, child] = await Promise.all([
      createAgent('worker').execute('SLOW ADMIT-parent'),
      createChild().execute({}),
    ]);
    return {texts: [own, ...child.texts]};`,
      "import createChild from '../.generated/admit-child.js';\n",
    ),
  });
  const settings = join(matrix.project.home, 'settings.json');
  await writeFile(settings, JSON.stringify({agents: {maxActive: 1, maxOutstanding: 4}}));
  try {
    const result = await matrix.project.cli(['run', 'admit-parent', '--input', '{}', '--json'], {
      env: matrix.home.env,
    });
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    assert.deepEqual(result.json.data.output.texts, ['slow answer', 'slow answer']);
  } finally {
    await writeFile(settings, '{}');
  }
  // Every request of either agent (side requests included) against every request of the other.
  const of = (marker: string) =>
    matrix.server.requests.filter((r) => JSON.stringify(r.body).includes(marker));
  const parent = of('ADMIT-parent');
  const child = of('ADMIT-child');
  assert.ok(parent.length > 0 && child.length > 0, 'both agents reached the model');
  for (const a of parent) {
    for (const b of child) {
      const apart =
        (a.endedStep ?? Number.POSITIVE_INFINITY) < (b.arrivedStep ?? 0) ||
        (b.endedStep ?? Number.POSITIVE_INFINITY) < (a.arrivedStep ?? 0);
      assert.ok(apart, 'a parent request and a child request were in flight at the same time');
    }
  }
});
