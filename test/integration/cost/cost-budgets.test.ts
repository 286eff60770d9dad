// Cost and budgets end to end: the real CLI runs workflows whose agents run on the real claude and codex binaries
// against scripted model servers that report usage the way each API does (Anthropic: uncached input beside cache
// reads and writes; Responses: input including cached, output including reasoning). Costs are compared with
// figures computed by hand from the Models.dev prices; budgets are checked before a call (nothing sent), inside a
// Claude Code turn (stopped at the response that crossed it), for decisions, for a child's bound budget, with the
// usual precedence, and a USD budget on a model without a price is refused.
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type AnthropicServer, isMainTurn, startAnthropicServer} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ResponsesServer, startResponsesServer} from '../../servers/models/openai-responses.ts';

let anthropic: AnthropicServer;
let openai: ResponsesServer;
let project: TempProject;
let home: HarnessHome;

// claude-sonnet-4-5 on Anthropic: $3 input, $15 output, $0.30 cache read, $3.75 cache write per million tokens.
// One response: 1000 uncached + 3000 cache read + 500 cache write input, 200 output.
const claudeUsage = {
  input_tokens: 1000,
  cache_read_input_tokens: 3000,
  cache_creation_input_tokens: 500,
  output_tokens: 200,
};
const claudeUsd = (1000 * 3 + 3000 * 0.3 + 500 * 3.75 + 200 * 15) / 1e6; // 0.008775
const claudeTokens = 1000 + 3000 + 500 + 200;
// gpt-5 on OpenAI: $1.25 input, $10 output, $0.125 cache read. One turn: 2000 input of which 800 cached, 300 output
// of which 100 reasoning (billed as output).
const codexUsage = {input: 2000, cached: 800, output: 300, reasoning: 100};
const codexUsd = (1200 * 1.25 + 800 * 0.125 + 300 * 10) / 1e6; // 0.0046
const codexTokens = 2000 + 300;

const childTs = `import {BudgetExceededError, createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({twice: z.boolean().optional().describe('Execute a second time')}),
  output: z.object({text: z.string().describe('Answer'), second: z.string().describe('Second outcome')}),
  async run({twice}) {
    const coder = createAgent('coder');
    const text = await coder.execute('Say hi');
    let second = '';
    if (twice) {
      try {
        second = await coder.execute('Say hi again');
      } catch (error) {
        second = error instanceof BudgetExceededError ? \`refused \${error.code} \${error.unit} \${error.spent}/\${error.limit}\` : String(error);
      }
    }
    return {text, second};
  },
});
`;

const parentTs = `import {BudgetExceededError, createAgent, decision, choice, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/spend-child.js';

const describe = (error: unknown) => {
  const e = error as {code?: string; name?: string; cause?: {name?: string}};
  return [e.code, e instanceof BudgetExceededError ? 'BudgetExceededError' : e.name, e.cause?.name].join(' ');
};

export default workflow({
  input: z.strictObject({
    mode: z.enum(['both', 'stop', 'bind', 'none', 'unpriced', 'unpriced-stop']).describe('What to run'),
  }),
  output: z.object({outcomes: z.array(z.string()).describe('What each step did')}),
  async run({mode}) {
    const outcomes: string[] = [];
    if (mode === 'none') return {outcomes};
    if (mode === 'unpriced' || mode === 'unpriced-stop') {
      try {
        outcomes.push(await createAgent('unpriced').execute(mode === 'unpriced' ? 'Say hi' : 'Use the TOOL'));
      } catch (error) {
        outcomes.push(describe(error));
      }
      return {outcomes};
    }
    if (mode === 'bind') {
      const child = await createChild({budget: {tokens: 1000}}).execute({twice: true});
      outcomes.push(child.second);
      outcomes.push(await createAgent('claude').execute('Say hi'));
      return {outcomes};
    }
    try {
      outcomes.push(await createAgent('claude').execute(mode === 'stop' ? 'Use the TOOL' : 'Say hi'));
    } catch (error) {
      outcomes.push(describe(error));
    }
    try {
      outcomes.push(await createAgent('codex').execute('Say hi'));
    } catch (error) {
      outcomes.push(describe(error));
    }
    if (mode === 'stop') {
      try {
        await decision({config: 'route', state: {}, questions: {team: choice('Which team?', ['a', 'b'])}});
        outcomes.push('decided');
      } catch (error) {
        outcomes.push(describe(error));
      }
      return {outcomes};
    }
    const child = await createChild().execute({});
    outcomes.push(child.text);
    return {outcomes};
  },
});
`;

before(async () => {
  anthropic = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    if (turn.transcript.includes('TOOL') && turn.toolResults.length === 0)
      return {
        toolUse: {name: 'Bash', input: {command: 'echo hi', description: 'Say hi'}},
        usage: claudeUsage,
      };
    return {text: 'claude says hi', usage: claudeUsage};
  });
  openai = await startResponsesServer(() => ({text: 'codex says hi', usage: codexUsage}));
  home = await createHarnessHome({anthropicUrl: anthropic.url, openaiUrl: openai.url});
  project = await createTempProject('stratos-cost-');
  await project.writeWorkflow('spend-child', {
    'workflow.yaml': manifest('spend-child', 'agents:\n  coder:\n    harness: codex\n    model: gpt-5\n'),
    'workflow.ts': childTs,
  });
  await project.writeWorkflow('spend', {
    'workflow.yaml': manifest(
      'spend',
      `agents:
  claude:
    harness: claude-code
    model: claude-sonnet-4-5
  codex:
    harness: codex
    model: gpt-5
  unpriced:
    harness: claude-code
    model: claude-imaginary-9
decisions:
  route:
    model: qwen3:8b
`,
    ),
    'workflow.ts': parentTs,
  });
  const build = await project.cli(['build', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a harness process outlived its run');
});

after(async () => {
  await anthropic?.close();
  await openai?.close();
  await project?.remove();
  await home?.remove();
});

// biome-ignore lint/suspicious/noExplicitAny: run.json as written
async function run(args: string[]): Promise<{result: any; record: any}> {
  const result = await project.cli(['run', 'spend', '--json', ...args], {env: home.env});
  const directory = (result.json?.data ?? result.json?.error?.details)?.runDirectory;
  assert.ok(directory, result.stdout + result.stderr);
  const record = JSON.parse(await readFile(join(directory, 'run.json'), 'utf8'));
  return {result, record};
}

const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

test('costs per harness and provider match hand-computed figures, with totals per agent, child and run', async () => {
  const {result, record} = await run(['--input', '{"mode":"both"}']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const {cost} = record;
  near(cost.usd, claudeUsd + codexUsd * 2);
  assert.equal(cost.tokens, claudeTokens + codexTokens * 2);
  assert.equal(cost.cacheReadInputTokens, 3000 + 800 * 2);
  assert.equal(cost.cacheCreationInputTokens, 500);
  assert.equal(cost.reasoningTokens, 100 * 2);
  assert.equal(cost.unknownCostCalls, 0);
  // Claude Code's own figure for the turn is recorded beside, labelled, never in place of the computed one.
  assert.equal(typeof cost.nativeUsd, 'number');
  const rows = cost.breakdown.map((row: Record<string, unknown>) => [
    row.workflow,
    row.name,
    row.harness,
    row.provider,
    row.model,
    row.calls,
  ]);
  assert.deepEqual(rows, [
    ['spend', 'claude', 'claude-code', 'anthropic', 'claude-sonnet-4-5', 1],
    ['spend', 'codex', 'codex', 'openai', 'gpt-5', 1],
    ['spend-child', 'coder', 'codex', 'openai', 'gpt-5', 1],
  ]);
  near(cost.breakdown[0].usd, claudeUsd);
  near(cost.breakdown[1].usd, codexUsd);
  const [parent, child] = cost.workflows;
  assert.equal(parent.workflow, 'spend');
  near(parent.usd, cost.usd);
  assert.equal(child.workflow, 'spend-child');
  assert.equal(child.parentExecutionId, parent.executionId);
  near(child.usd, codexUsd);

  // The totals are on each workflow span too, the run's own including its child's.
  const ends = (await readFile(join(result.json.data.runDirectory, 'events.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((event) => event.type === 'workflow.end');
  assert.deepEqual(
    ends.map((event) => [event.workflow, event.attributes['stratos.workflow.usage.tokens']]),
    [
      ['spend-child', codexTokens],
      ['spend', claudeTokens + codexTokens * 2],
    ],
  );
  near(ends[1].attributes['stratos.workflow.cost.usd'], cost.usd);

  const list = await project.cli(['runs', 'list', '--json'], {env: home.env});
  const listed = list.json.data.runs.find((r: {runId: string}) => r.runId === record.runId);
  near(listed.cost.usd, cost.usd);
  const table = await project.cli(['runs', 'list'], {env: home.env});
  assert.match(table.stdout, /COST/);
  assert.match(table.stdout, /\$0\.0180/);
  const show = await project.cli(['runs', 'show', record.runId], {env: home.env});
  assert.match(show.stdout, /cost \$0\.0180, 9300 tokens in 3 calls/);
  assert.match(
    show.stdout,
    /spend-child\s+coder\s+codex\s+openai\s+gpt-5\s+1\s+2000\s+300\s+800\s+\$0\.0046/,
  );
});

test('a Claude Code turn is stopped at the response that crossed the budget; later calls and decisions are refused before anything is sent', async () => {
  const claudeBefore = anthropic.turns().filter(isMainTurn).length;
  const codexBefore = openai.turns().length;
  const {result, record} = await run(['--input', '{"mode":"stop"}', '--budget-usd', '0.005']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(result.json.data.output.outcomes, [
    'STRATOS_BUDGET_EXCEEDED AgentRunError BudgetExceededError',
    'STRATOS_BUDGET_EXCEEDED BudgetExceededError ',
    'STRATOS_BUDGET_EXCEEDED BudgetExceededError ',
  ]);
  assert.equal(
    anthropic.turns().filter(isMainTurn).length - claudeBefore,
    1,
    'the tool result was never sent',
  );
  assert.equal(openai.turns().length, codexBefore, 'nothing was sent to Codex');
  near(record.cost.usd, claudeUsd);
  assert.deepEqual(record.cost.budget, {usd: 0.005});
  assert.equal(record.cost.budgetExceeded.subject, "agent 'claude'");
  const events = (await readFile(join(result.json.data.runDirectory, 'events.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((event) => event.name === 'budget.exceeded');
  assert.deepEqual(
    events.map((event) => [
      event.attributes['stratos.budget.unit'],
      event.attributes['stratos.budget.stopped'],
    ]),
    [
      ['usd', true],
      ['usd', undefined],
      ['usd', undefined],
    ],
  );
  const show = await project.cli(['runs', 'show', record.runId], {env: home.env});
  assert.match(show.stdout, /budget exceeded: workflow spend spent \$0\.0088 of \$0\.0050 at agent 'claude'/);
  // The call that hit it: its event in the tree (the turn stopped; the later calls not sent), its breakdown row.
  const lines = show.stdout.split('\n');
  const agentLine = lines.findIndex((line) => /agent claude\b/.test(line));
  assert.match(
    lines.slice(agentLine).join('\n'),
    /budget exceeded: \$0\.0088 of \$0\.0050 \(workflow spend\), turn stopped/,
  );
  assert.equal(
    show.stdout.match(/budget exceeded: \$0\.0088 of \$0\.0050 \(workflow spend\), not sent/g)?.length,
    2,
  );
  const marked = lines.filter((line) => line.endsWith('<- hit the budget'));
  assert.equal(marked.length, 1, show.stdout);
  assert.match(marked[0]!, /^spend\s+claude\s+claude-code\s+anthropic\s+claude-sonnet-4-5\s+1\s/);
});

test("a child's bound budget is an inner limit: the child's next call is refused, the parent goes on", async () => {
  const {result, record} = await run(['--input', '{"mode":"bind"}']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const [second, claude] = result.json.data.output.outcomes;
  assert.equal(second, `refused STRATOS_BUDGET_EXCEEDED tokens ${codexTokens}/1000`);
  assert.equal(claude, 'claude says hi');
  assert.deepEqual(record.cost.workflows[1].budget, {tokens: 1000});
  assert.equal(record.cost.budget, undefined);
});

test('budget precedence: workflow.yaml, then overrides.budget, then --budget-*', async () => {
  const input = JSON.stringify({mode: 'none', overrides: {budget: {tokens: 50000}}});
  const {result, record} = await run(['--input', input, '--budget-usd', '3']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(record.cost.budget, {tokens: 50000, usd: 3});
  const invalid = await project.cli(
    ['run', 'spend', '--json', '--input', '{"mode":"none"}', '--budget-usd', 'lots'],
    {
      env: home.env,
    },
  );
  assert.equal(invalid.exitCode, 1);
  assert.equal(invalid.json.error.code, 'STRATOS_BUDGET_INVALID');
});

test('a USD budget on a model without a price is refused before anything is sent, unless tokens are bounded too', async () => {
  const before = anthropic.turns().filter(isMainTurn).length;
  const refused = await run(['--input', '{"mode":"unpriced"}', '--budget-usd', '1']);
  assert.deepEqual(refused.result.json.data.output.outcomes, ['STRATOS_BUDGET_PRICE_UNKNOWN StratosError ']);
  assert.equal(anthropic.turns().filter(isMainTurn).length, before);
  const bounded = await run([
    '--input',
    '{"mode":"unpriced"}',
    '--budget-usd',
    '1',
    '--budget-tokens',
    '100000',
  ]);
  assert.deepEqual(bounded.result.json.data.output.outcomes, ['claude says hi']);
  // Its cost is unknown, and said so; its tokens count.
  assert.equal(bounded.record.cost.unknownCostCalls, 1);
  assert.equal(bounded.record.cost.usd, 0);
  assert.equal(bounded.record.cost.tokens, claudeTokens);
});

test("Claude Code's own cap is the USD budget left when its session starts: it stops a turn Stratos cannot price", async () => {
  // Stratos has no price for claude-imaginary-9, so its own USD check cannot see the crossing; Claude Code prices
  // the model itself and stops at the response that passed its maxBudgetUsd, before the tool runs.
  const before = anthropic.turns().filter(isMainTurn).length;
  const {result, record} = await run([
    '--input',
    '{"mode":"unpriced-stop"}',
    '--budget-usd',
    '0.005',
    '--budget-tokens',
    '100000',
  ]);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(result.json.data.output.outcomes, ['STRATOS_BUDGET_EXCEEDED AgentRunError ']);
  assert.equal(anthropic.turns().filter(isMainTurn).length - before, 1, 'the tool result was never sent');
  // The call is marked with Claude Code's own figures; run.json's budgetExceeded is Stratos's own figures only.
  assert.equal(record.cost.budgetExceeded, undefined);
  const show = await project.cli(['runs', 'show', record.runId], {env: home.env});
  assert.match(
    show.stdout,
    /budget exceeded: \$0\.\d{4} of \$0\.0050 \(the harness's own cap\), turn stopped/,
  );
  const marked = show.stdout.split('\n').filter((line) => line.endsWith('<- hit the budget'));
  assert.equal(marked.length, 1, show.stdout);
  assert.match(marked[0]!, /^spend\s+unpriced\s+claude-code\s+anthropic\s+claude-imaginary-9\s+1\s.*unknown/);
});
