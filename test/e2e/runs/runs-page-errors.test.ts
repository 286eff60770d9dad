// The runs page, served by the real CLI and read in a real headless Chromium: a thrown error with its line in the
// .ts source, an MCP tool error's own words, each error once (under the run's title, and on the span where it
// happened, not on its ancestors), calls labelled by their key argument, colour by span kind, the span search, a
// link to a span in the URL hash, ISO-like dates and attribute values that wrap between words.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {launchChromium, type TestBrowser} from '../../helpers/chromium.ts';
import {startRunsPage} from '../../helpers/runs-page.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

let project: TempProject;
let browser: TestBrowser;
let boomRun: string;
let toolsRun: string;

const boomTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  run() {
    throw new Error('bad n 5');
  },
});
`;

const toolsTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createCounter from './generated/mcp/counter.js';
import createSchemas from './generated/mcp/schemas.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  async run() {
    const counter = await createCounter();
    await counter.echo({text: 'src/first.ts'});
    await counter.echo({text: 'src/second.ts'});
    await counter.echo({text: 'a long text that goes on and on so that the attribute value has to wrap somewhere'});
    const schemas = await createSchemas();
    await schemas.is_error({});
    return {};
  },
});
`;

const stdioServer = (name: string) => `    ${name}:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, ${name}, --stdio]
`;

before(async () => {
  project = await createTempProject('stratos-runs-page-errors-');
  await project.writeWorkflow('boom', {'workflow.yaml': manifest('boom'), 'workflow.ts': boomTs});
  await project.writeWorkflow('tools', {
    'workflow.yaml': manifest(
      'tools',
      `mcp:\n  servers:\n${stdioServer('counter')}${stdioServer('schemas')}`,
    ),
    'workflow.ts': toolsTs,
  });
  const boom = await project.cli(['run', 'boom', '--json']);
  assert.equal(boom.exitCode, 1, boom.stdout + boom.stderr);
  boomRun = boom.json.error.details.runDirectory.split('/').pop();
  const tools = await project.cli(['run', 'tools', '--json']);
  assert.equal(tools.exitCode, 1, tools.stdout + tools.stderr);
  toolsRun = tools.json.error.details.runDirectory.split('/').pop();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await project.remove();
});

test('a thrown error shows its .ts line once, and the list shows ISO-like dates', async () => {
  const page = await startRunsPage(['--no-browser'], {cwd: project.cwd, env: project.env});
  try {
    const tab = await browser.context.newPage();
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-view=list]');
    const started = await tab.$$eval('#runs tbody tr', (rows) =>
      rows.map((row) => row.children[2]!.textContent),
    );
    for (const text of started) assert.match(text!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const codes = await tab.$$eval('#runs tbody td.error-code', (cells) =>
      cells.map((cell) => cell.textContent),
    );
    assert.deepEqual(codes.sort(), ['STRATOS_MCP_TOOL_ERROR', 'STRATOS_RUN_FAILED']);

    await tab.goto(`${page.url}#/runs/${boomRun}`);
    await tab.waitForSelector('body[data-view=run]');
    assert.equal(
      await tab.textContent('#run-error'),
      "STRATOS_RUN_FAILED: Workflow 'boom' failed: bad n 5 (at workflow.ts:8:11)",
    );
    assert.match((await tab.textContent('#details #error'))!, /at workflow\.ts:8:11/);
    const text = await tab.textContent('#main');
    assert.equal(text!.match(/bad n 5/g)?.length, 1, 'the message once on the page');
    assert.equal(text!.match(/Caused by/g), null);
    await tab.close();
  } finally {
    await page.stop();
  }
});

test('an MCP tool error: its words, once, on the span where it happened; the ancestor links to it', async () => {
  const page = await startRunsPage(['--no-browser'], {cwd: project.cwd, env: project.env});
  try {
    const tab = await browser.context.newPage();
    await tab.goto(`${page.url}#/runs/${toolsRun}`);
    await tab.waitForSelector('body[data-view=run]');
    const text = await tab.textContent('#main');
    assert.doesNotMatch(text!, /object Object/);
    assert.equal(text!.match(/the tool failed on purpose/g)?.length, 1, text!);
    // The workflow is selected first: it only passed the error on, so it links to the call.
    assert.equal(await tab.textContent('#details #error'), 'Failed with the error of tools/call is_error.');
    await tab.click('#details #error a');
    await tab.waitForFunction(
      () => document.querySelector('#details h2')?.textContent === 'tools/call is_error',
    );
    assert.match(tab.url(), /#\/runs\/[^/]+\/[0-9a-f]{16}$/);
    assert.match(
      (await tab.textContent('#details #error'))!,
      /^STRATOS_MCP_TOOL_ERROR \(the run's error, above\)/,
    );
    assert.equal(
      await tab.$$eval('#details #attributes th', (ths) => ths.some((th) => /error/.test(th.textContent!))),
      false,
    );
    await tab.close();
  } finally {
    await page.stop();
  }
});

test('labels, colours by kind, the span search and a link to a span', async () => {
  const page = await startRunsPage(['--no-browser'], {cwd: project.cwd, env: project.env});
  try {
    const tab = await browser.context.newPage();
    await tab.goto(`${page.url}#/runs/${toolsRun}`);
    await tab.waitForSelector('body[data-view=run]');
    const names = await tab.$$eval('#waterfall-rows .row .name', (found) =>
      found.map((name) => name.textContent),
    );
    assert.ok(names.includes('tools/call echo text=src/first.ts'), names.join('\n'));
    assert.ok(names.includes('tools/call echo text=src/second.ts'));

    // One colour per kind; a failed span red whatever its kind.
    const colour = (selector: string) =>
      tab.$eval(`${selector} .bar`, (bar) => getComputedStyle(bar).backgroundColor);
    const workflow = await colour('.row[data-kind=workflow]');
    const call = await colour('.row[data-kind="mcp.call"][data-state=ok]');
    const connect = await colour('.row[data-kind="mcp.connect"]');
    const failed = await colour('.row[data-kind="mcp.call"][data-state=error]');
    assert.notEqual(workflow, call);
    assert.equal(call, connect, 'both MCP kinds share a colour');
    assert.notEqual(failed, call);
    assert.equal(workflow, failed, 'the failed workflow is red too');

    // The search keeps the spans whose label, kind, status or error holds every word.
    await tab.fill('#span-filter', 'echo second');
    const shown = await tab.$$eval('#waterfall-rows .row .name', (found) =>
      found.map((name) => name.textContent),
    );
    assert.deepEqual(shown, ['tools/call echo text=src/second.ts']);
    assert.match((await tab.textContent('#span-count'))!, /^1 of \d+ spans$/);
    await tab.fill('#span-filter', 'failed');
    assert.equal(
      await tab.$$eval('#waterfall-rows .row', (rows) => rows.length),
      2,
      'the workflow and the call',
    );
    await tab.fill('#span-filter', '');

    // Selecting a span puts its link in the address bar; opening the link selects it.
    await tab.click('.row:has(.name[title="tools/call echo text=src/second.ts"])');
    const link = tab.url();
    const spanId = /\/([0-9a-f]{16})$/.exec(link)?.[1];
    assert.ok(spanId !== undefined, link);
    const again = await browser.context.newPage();
    await again.goto(link);
    await again.waitForSelector('body[data-view=run]');
    assert.equal(await again.getAttribute('.row.selected', 'data-span-id'), spanId);
    assert.equal(await again.textContent('#details h2'), 'tools/call echo text=src/second.ts');

    // Attribute values wrap between words: the long argument spans several lines, no word is cut.
    await again.click('.row:has(.name[title^="tools/call echo text=\\"a long text"])');
    const wrap = await again.$eval('#attributes td', (td) => {
      const style = getComputedStyle(td);
      return {wordBreak: style.wordBreak, overflowWrap: style.overflowWrap};
    });
    assert.deepEqual(wrap, {wordBreak: 'normal', overflowWrap: 'break-word'});
    await again.close();
    await tab.close();
  } finally {
    await page.stop();
  }
});
