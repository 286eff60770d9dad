// The runs page's cost view end to end: real runs of the real CLI, a Claude Code agent on a model without a price
// and one on claude-sonnet-4-5 against the scripted Anthropic server, a tokens budget crossed by the second agent's
// response; the page served by the real CLI and read in headless Chromium. The list's cost column, and the run's
// Cost section: totals with the unknown cost said, the budget, the call that hit it (linked and marked in the
// per-agent, per-model breakdown).
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {launchChromium, type TestBrowser} from '../../helpers/chromium.ts';
import {startRunsPage} from '../../helpers/runs-page.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type AnthropicServer, isMainTurn, startAnthropicServer} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome} from '../../servers/models/harness-env.ts';

// claude-sonnet-4-5 on Anthropic: $3 input, $15 output, $0.30 cache read, $3.75 cache write per million tokens.
const usage = {
  input_tokens: 1000,
  cache_read_input_tokens: 3000,
  cache_creation_input_tokens: 500,
  output_tokens: 200,
};
// (1000 x 3 + 3000 x 0.3 + 500 x 3.75 + 200 x 15) / 1e6 = $0.008775; 4700 tokens per response.

const workflowTs = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({calls: z.boolean().describe('Call the agents')}),
  output: z.object({outcomes: z.array(z.string()).describe('What each agent did')}),
  async run({calls}) {
    const outcomes: string[] = [];
    if (!calls) return {outcomes};
    outcomes.push(await createAgent('unpriced').execute('Say hi'));
    try {
      outcomes.push(await createAgent('claude').execute('Use the TOOL'));
    } catch (error) {
      outcomes.push(String((error as {code?: string}).code));
    }
    return {outcomes};
  },
});
`;

let anthropic: AnthropicServer;
let home: HarnessHome;
let project: TempProject;
let browser: TestBrowser;
let spendRun: {runDirectory: string; executionId: string};
let quietRun: {executionId: string};

before(async () => {
  anthropic = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    if (turn.transcript.includes('TOOL') && turn.toolResults.length === 0)
      return {toolUse: {name: 'Bash', input: {command: 'echo hi', description: 'Say hi'}}, usage};
    return {text: 'hi', usage};
  });
  home = await createHarnessHome({anthropicUrl: anthropic.url});
  project = await createTempProject('stratos-runs-cost-');
  await project.writeWorkflow('spend', {
    'workflow.yaml': manifest(
      'spend',
      `agents:
  claude:
    harness: claude-code
    model: claude-sonnet-4-5
  unpriced:
    harness: claude-code
    model: claude-imaginary-9
`,
    ),
    'workflow.ts': workflowTs,
  });
  const cli = (args: string[]) => project.cli(args, {env: home.env});
  const quiet = await cli(['run', 'spend', '--json', '--input', '{"calls":false}']);
  assert.equal(quiet.exitCode, 0, quiet.stdout + quiet.stderr);
  quietRun = quiet.json.data;
  const spend = await cli([
    'run',
    'spend',
    '--json',
    '--input',
    '{"calls":true}',
    '--budget-usd',
    '1',
    '--budget-tokens',
    '9000',
  ]);
  assert.equal(spend.exitCode, 0, spend.stdout + spend.stderr);
  assert.deepEqual(spend.json.data.output.outcomes, ['hi', 'STRATOS_BUDGET_EXCEEDED']);
  spendRun = spend.json.data;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await anthropic?.close();
  await project?.remove();
  await home?.remove();
});

test("the run list's cost column and a run's Cost section: unknown said, the budget, the call that hit it marked", async () => {
  const page = await startRunsPage(['--no-browser', '--json'], {cwd: project.cwd, env: {...project.env}});
  try {
    const tab = await browser.context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-view=list]');
    const costOf = (executionId: string) =>
      tab.$eval(`#runs tr[data-run-id$="${executionId}"] td:nth-child(6)`, (cell) => cell.textContent);
    // Known USD with `+?` for the call whose cost is unknown; nothing for a run without model calls.
    assert.equal(await costOf(spendRun.executionId), '$0.0088+?');
    assert.equal(await costOf(quietRun.executionId), '');

    await tab.goto(`${page.url}#/runs/${spendRun.runDirectory.split('/').pop()}`);
    await tab.waitForSelector('#details #cost-breakdown');
    // Claude Code's own figure is labelled as the harness's, beside the computed one.
    assert.match(
      (await tab.textContent('#cost-total'))!,
      /^\$0\.0088 \(1 call of unknown cost not included\) · 9400 tokens in 2 calls · harness-reported \$\d+\.\d{4}$/,
    );
    assert.equal(await tab.textContent('#cost-budget'), 'budget $1.0000, 9000 tokens');
    assert.equal(
      await tab.textContent('#budget-exceeded'),
      'budget exceeded: workflow spend spent 9400 tokens of 9000 tokens at agent claude',
    );
    const rows = await tab.$$eval('#cost-breakdown tbody tr', (elements) =>
      elements.map((row) => [
        ...[...row.querySelectorAll('td')].map((cell) => cell.textContent),
        row.dataset.budgetHit ?? '',
      ]),
    );
    assert.deepEqual(rows, [
      [
        'unpriced',
        'claude-imaginary-9',
        'unknown',
        '1',
        '4500',
        '200',
        'claude-code',
        'anthropic',
        'spend',
        '',
      ],
      [
        'claude hit the budget',
        'claude-sonnet-4-5',
        '$0.0088',
        '1',
        '4500',
        '200',
        'claude-code',
        'anthropic',
        'spend',
        'true',
      ],
    ]);
    // The link goes to the agent execute that crossed the budget, and selects it.
    await tab.click('#budget-exceeded a');
    await tab.waitForFunction(() => document.querySelector('#details h2')?.textContent === 'agent claude');
    assert.match((await tab.textContent('#details'))!, /budget\.exceeded/);
    assert.deepEqual(errors, []);
  } finally {
    const stopped = await page.stop();
    assert.equal(stopped.exitCode, 0, stopped.stderr);
  }
});
