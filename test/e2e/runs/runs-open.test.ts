// `stratos runs open` end to end: real runs made by the real CLI (a parent with an MCP server, two child
// invocations, one failing, and a Claude Code agent turn against the scripted model server; a failed run; a run
// killed while an MCP call hung), the page served by the real CLI process, and read in a real headless Chromium.
// Also: refused requests (no token, wrong token, `..`, encoded separators, another Host), and nothing written.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readdir, readFile, stat} from 'node:fs/promises';
import {get, request} from 'node:http';
import {createServer} from 'node:net';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {launchChromium, type TestBrowser} from '../../helpers/chromium.ts';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {startRunsPage} from '../../helpers/runs-page.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {pollUntil, waitFor} from '../../helpers/wait-for.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome} from '../../servers/models/harness-env.ts';

const recordUrlScript = fileURLToPath(new URL('../../servers/browser/record-url.ts', import.meta.url));
const hostile = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

let anthropic: AnthropicServer;
let home: HarnessHome;
let project: TempProject;
let browser: TestBrowser;
let parentRun: {executionId: string; runDirectory: string};
let failedRun: {executionId: string};

const parentTs = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/child.js';
import createCounter from './generated/mcp/counter.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({echo: z.string().describe('Echo'), text: z.string().describe('Agent answer')}),
  async run() {
    const counter = await createCounter();
    const echoed = await counter.echo({text: 'direct'});
    console.log(${JSON.stringify(hostile)});
    await createChild().execute({fail: false});
    try {
      await createChild().execute({fail: true});
    } catch {
      console.log('the second child failed, as planned');
    }
    const text = await createAgent('claude').execute('MCP call the echo tool');
    return {echo: echoed.structuredContent.text, text};
  },
});
`;

const childTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({fail: z.boolean().describe('Throw')}),
  output: z.object({ok: z.boolean().describe('Done')}),
  run({fail}) {
    console.log('child running');
    if (fail) throw new Error('child gave up', {cause: new Error('the disk is on fire')});
    return {ok: true};
  },
});
`;

const loggerTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({fail: z.boolean().describe('Throw')}),
  output: z.object({done: z.boolean().describe('Done')}),
  run({fail}) {
    console.log('step one');
    if (fail) throw new Error('deliberate failure');
    return {done: true};
  },
});
`;

const hangerTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createSchemas from './generated/mcp/schemas.js';
export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  async run() {
    const schemas = await createSchemas();
    console.log('calling a tool that never answers');
    await schemas.hang({});
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
  anthropic = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    const echo = resultOf(turn, 'mcp__counter__echo');
    if (echo !== undefined) return {text: `echo said ${echo.content}`};
    return toolCall(turn, 'mcp__counter__echo', {text: hostile});
  });
  home = await createHarnessHome({anthropicUrl: anthropic.url});
  project = await createTempProject('stratos-runs-open-');
  await project.writeWorkflow('parent', {
    'workflow.yaml': manifest(
      'parent',
      `mcp:\n  servers:\n${stdioServer('counter')}agents:\n  claude:\n    harness: claude-code\n`,
    ),
    'workflow.ts': parentTs,
  });
  await project.writeWorkflow('child', {'workflow.yaml': manifest('child'), 'workflow.ts': childTs});
  await project.writeWorkflow('logger', {'workflow.yaml': manifest('logger'), 'workflow.ts': loggerTs});
  await project.writeWorkflow('hanger', {
    'workflow.yaml': manifest('hanger', `mcp:\n  servers:\n${stdioServer('schemas')}`),
    'workflow.ts': hangerTs,
  });
  const cli = (args: string[]) => project.cli(args, {env: home.env});

  const parent = await cli(['run', 'parent', '--input', '{}', '--json']);
  assert.equal(parent.exitCode, 0, parent.stdout + parent.stderr);
  parentRun = parent.json.data;
  const ok = await cli(['run', 'logger', '--input', '{"fail":false}', '--json']);
  assert.equal(ok.exitCode, 0, ok.stdout + ok.stderr);
  const failed = await cli(['run', 'logger', '--input', '{"fail":true}', '--json']);
  assert.equal(failed.exitCode, 1, failed.stdout + failed.stderr);
  failedRun = failed.json.error.details;
  await runUntilHungThenKill();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await anthropic?.close();
  await project?.remove();
  await home?.remove();
});

/** Starts the hanger, waits until its hanging MCP call is recorded, then kills the CLI process (a crash). */
async function runUntilHungThenKill(): Promise<void> {
  const build = await project.cli(['build', 'hanger', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
  const child = spawn(process.execPath, [cliPath, 'run', 'hanger', '--input', '{}', '--json'], {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env, ...home.env},
    stdio: 'ignore',
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  await waitFor(async () => (await hangerEvents()).includes('"name":"tools/call hang"'), {
    timeoutMs: 120_000,
    intervalMs: 100,
    what: 'the hanger to record its MCP call',
  });
  // Records are written in batches at most 20 ms apart: the start of the call is on disk already.
  child.kill('SIGKILL');
  await closed;
}

async function hangerEvents(): Promise<string> {
  for (const workspace of await readdir(join(project.home, 'runs')).catch(() => [] as string[])) {
    const folder = join(project.home, 'runs', workspace);
    for (const run of await readdir(folder).catch(() => [] as string[])) {
      const record = await readFile(join(folder, run, 'run.json'), 'utf8').catch(() => '');
      if (record.includes('"name": "hanger"') || record.includes('"name":"hanger"'))
        return readFile(join(folder, run, 'events.jsonl'), 'utf8').catch(() => '');
    }
  }
  return '';
}

/** Every file under `folder` with its size and modification time. */
async function snapshot(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, {recursive: true, withFileTypes: true})) {
    const path = join(entry.parentPath, entry.name);
    const facts = await stat(path);
    out.push(`${path} ${entry.isDirectory() ? 'dir' : facts.size} ${facts.mtimeMs}`);
  }
  return out.sort();
}

function rawGet(
  url: string,
  path: string,
  options: {host?: string; method?: string} = {},
): Promise<{status: number; headers: Record<string, unknown>; body: string}> {
  const {port} = new URL(url);
  return new Promise((resolve, reject) => {
    const req = (options.method === undefined ? get : request)(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: {Host: options.host ?? `127.0.0.1:${port}`},
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          resolve({status: response.statusCode ?? 0, headers: response.headers, body}),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('the page lists finished, failed and crashed runs, filters them, and shows a run as a waterfall', async () => {
  const before = [...(await snapshot(project.home)), ...(await snapshot(project.cwd))];
  const page = await startRunsPage(['--no-browser', '--json'], {cwd: project.cwd, env: {...project.env}});
  try {
    const tab = await browser.context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-view=list]');
    const listed = await tab.$$eval('#runs tbody tr', (rows) =>
      rows.map((row) => [row.querySelector('a')!.textContent, row.querySelector('.badge')!.textContent]),
    );
    assert.deepEqual(listed, [
      ['hanger', 'running (process gone)'],
      ['logger', 'failed'],
      ['logger', 'succeeded'],
      ['parent', 'succeeded'],
    ]);
    const tokens = await tab.$eval(
      `#runs tr[data-run-id$="${parentRun.executionId}"] td:nth-child(5)`,
      (cell) => cell.textContent,
    );
    assert.equal(tokens, 'in 30 · out 15', 'three model responses of 10 in and 5 out each');

    await tab.fill('#filter', 'logger');
    assert.equal(await tab.textContent('#run-count'), '2 of 4 runs');
    await tab.selectOption('#status-filter', 'failed');
    assert.equal(await tab.textContent('#run-count'), '1 of 4 runs');
    const visible = await tab.$$eval('#runs tbody tr:not([hidden])', (rows) =>
      rows.map((r) => r.dataset.runId),
    );
    assert.equal(visible.length, 1);
    assert.ok(visible[0]!.endsWith(failedRun.executionId));
    await tab.click('#runs tbody tr:not([hidden]) a');
    await tab.waitForSelector('body[data-view=run]');
    assert.equal(await tab.textContent('#run-status'), 'failed');
    // The message once, under the run's title; the span's details name its code and where it was thrown.
    assert.match((await tab.textContent('#run-error'))!, /STRATOS_RUN_FAILED: Workflow 'logger' failed/);
    assert.match(
      (await tab.textContent('#details #error'))!,
      /^STRATOS_RUN_FAILED \(the run's error, above\)/,
    );
    // The thrown error's own line in the .ts source; no Caused by that repeats the message.
    assert.match((await tab.textContent('#details #error'))!, /at workflow\.ts:8:21/);
    assert.doesNotMatch((await tab.textContent('#details #error'))!, /Caused by/);

    // The parent run: the tree order and nesting of the trace, every child inside its parent on the time axis.
    await tab.goto(`${page.url}#/runs/${parentRun.runDirectory.split('/').pop()}`);
    await tab.waitForSelector('body[data-view=run]');
    const rows = await tab.$$eval('#waterfall-rows .row', (elements) =>
      elements.map((row) => {
        const bar = row.querySelector<HTMLElement>('.bar')!;
        return {
          line: `${'  '.repeat(Number(row.dataset.depth))}${row.querySelector('.name')!.textContent}`,
          state: row.dataset.state!,
          tokens: row.querySelector('.tokens')!.textContent,
          left: Number.parseFloat(bar.style.left),
          right: Number.parseFloat(bar.style.left) + Number.parseFloat(bar.style.width),
        };
      }),
    );
    assert.deepEqual(
      rows.map((row) => row.line),
      [
        'workflow parent',
        '  prepare parent',
        '  connect counter',
        '  tools/call echo text=direct',
        '  workflow child',
        '    prepare child',
        '  workflow child',
        '    prepare child',
        '  agent claude',
        '    start claude-code',
        '      load @anthropic-ai/claude-agent-sdk',
        '      check authentication',
        '      start claude-code session',
        '    chat claude-code',
        '    execute_tool ToolSearch query=select:mcp__counter__echo',
        '    chat claude-code',
        // Labelled by the key argument, cut and quoted: the markup is text, never run.
        `    execute_tool mcp__counter__echo text=${JSON.stringify(`${hostile.slice(0, 47)}…`)}`,
        '    chat claude-code',
      ],
    );
    // The token column: each model call's own usage.
    assert.deepEqual(
      rows.filter((row) => row.line.trim() === 'chat claude-code').map((row) => row.tokens),
      ['in 10 · out 5', 'in 10 · out 5', 'in 10 · out 5'],
    );
    assert.deepEqual(
      rows.map((row) => row.state),
      [
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'error',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
        'ok',
      ],
    );
    const epsilon = 0.01;
    for (const [index, row] of rows.entries()) {
      const depth = row.line.length - row.line.trimStart().length;
      const parent = rows
        .slice(0, index)
        .findLast((other) => other.line.length - other.line.trimStart().length === depth - 2);
      if (parent === undefined) continue;
      assert.ok(row.left >= parent.left - epsilon && row.right <= parent.right + epsilon, row.line);
    }
    const siblings = rows.filter((row) => row.line.startsWith('  ') && !row.line.startsWith('    '));
    for (let i = 1; i < siblings.length; i++)
      assert.ok(siblings[i]!.left >= siblings[i - 1]!.left - epsilon, 'siblings in start order');

    // The keyboard moves the selection and folds the agent's subtree.
    await tab.focus('#waterfall-rows');
    await tab.keyboard.press('ArrowDown');
    assert.equal(await tab.textContent('#details h2'), 'prepare parent');
    await tab.click('#waterfall-rows .row[data-kind="agent.execute"]');
    await tab.keyboard.press('ArrowLeft');
    assert.equal((await tab.$$('#waterfall-rows .row')).length, 9, 'the agent folded');
    await tab.keyboard.press('ArrowRight');
    assert.equal((await tab.$$('#waterfall-rows .row')).length, 18, 'the agent unfolded');

    // The failed child: marked, its error with the Caused by chain.
    await tab.click('#waterfall-rows .row[data-state=error]');
    assert.match((await tab.textContent('#details #error'))!, /Workflow 'child' failed: child gave up/);
    assert.match((await tab.textContent('#details #error'))!, /Caused by: Error: the disk is on fire/);
    assert.equal(await tab.textContent('#waterfall-rows .row[data-state=error] .mark'), 'failed');
    // The screenshot of docs/telemetry.md: STRATOS_TEST_SCREENSHOT=docs/images/runs-page.png.
    const screenshot = process.env.STRATOS_TEST_SCREENSHOT;
    if (screenshot !== undefined) await tab.screenshot({path: screenshot});

    // Recorded text is text: the console line and the tool arguments hold markup that must not run.
    await tab.click('#waterfall-rows .row[data-kind=workflow][data-depth="0"]');
    assert.ok((await tab.textContent('#details #logs'))!.includes(hostile));
    const tool = await tab.$$('#waterfall-rows .row[data-kind="agent.tool"]');
    await tool[1]!.click();
    assert.ok((await tab.textContent('#details #attributes'))!.includes(hostile.replaceAll('"', '\\"')));
    assert.equal(await tab.evaluate(() => (window as {__pwned?: number}).__pwned), undefined);
    assert.equal(await tab.$$eval('#main script, #main img', (found) => found.length), 0);

    // The crashed run: its hanging call has no end and is drawn as such, not as finished.
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-view=list]');
    await tab.click('#runs tr[data-status=running] a');
    await tab.waitForSelector('body[data-view=run]');
    const hung = await tab.$$eval('#waterfall-rows .row', (elements) =>
      elements.map((row) => [row.querySelector('.name')!.textContent, row.dataset.state]),
    );
    assert.deepEqual(hung.slice(0, 1), [['workflow hanger', 'open']]);
    assert.deepEqual(
      hung.find(([name]) => name === 'tools/call hang'),
      ['tools/call hang', 'open'],
    );
    assert.match(
      (await tab.textContent('#waterfall-rows .row[data-state=open] .duration'))!,
      /no end recorded/,
    );
    assert.deepEqual(errors, [], 'no script errors on the page');
    await tab.close();
  } finally {
    const stopped = await page.stop();
    assert.equal(stopped.exitCode, 0, stopped.stderr);
    const envelope = JSON.parse(stopped.stdout);
    assert.equal(envelope.ok, true);
    assert.equal(envelope.data.url, page.url);
    assert.equal(envelope.data.browserOpened, false);
    assert.ok(envelope.data.requests > 5);
  }
  const afterwards = [...(await snapshot(project.home)), ...(await snapshot(project.cwd))];
  assert.deepEqual(afterwards, before, 'the page wrote nothing in the home or the project');
});

test('requests without the token, with another Host, with .. or encoded separators are refused', async () => {
  const page = await startRunsPage(['--no-browser'], {cwd: project.cwd, env: {...project.env}});
  try {
    const base = new URL(page.url).pathname; // /<token>/
    const token = base.slice(1, -1);
    const ok = await rawGet(page.url, `${base}api/runs`);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(JSON.parse(ok.body).runs.length, 4);
    const html = await rawGet(page.url, base);
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(html.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(html.headers['x-content-type-options'], 'nosniff');
    assert.equal(
      (await rawGet(page.url, `${base}app.js`)).headers['content-type'],
      'text/javascript; charset=utf-8',
    );

    for (const path of [
      '/',
      '/api/runs',
      '/index.html',
      `/${'0'.repeat(32)}/api/runs`,
      `/${token.slice(0, -1)}/`,
    ]) {
      const refused = await rawGet(page.url, path);
      assert.equal(refused.status, 403, path);
      assert.doesNotMatch(refused.body, /runId/, path);
    }
    for (const path of [
      `${base}../${token}/api/runs`,
      `${base}..`,
      `${base}api/runs/..%2F..%2Frun.json`,
      `${base}api/runs/%2e%2e`,
      `${base}api/..%5c..%5cworkspace.json`,
      `${base}./api/runs`,
    ]) {
      const refused = await rawGet(page.url, path);
      assert.equal(refused.status, 400, path);
      assert.doesNotMatch(refused.body, /runId|"path"/, path);
    }
    const folder = await rawGet(page.url, base.slice(0, -1));
    assert.equal(folder.status, 308);
    assert.equal(folder.headers.location, base);
    assert.equal((await rawGet(page.url, `${base}api/runs/not-a-run`)).status, 404);
    assert.equal((await rawGet(page.url, `${base}run.json`)).status, 404);
    assert.equal((await rawGet(page.url, `${base}api/runs`, {host: 'evil.example'})).status, 403);
    assert.equal((await rawGet(page.url, `${base}api/runs`, {method: 'POST'})).status, 405);
  } finally {
    const stopped = await page.stop();
    assert.equal(stopped.exitCode, 0, stopped.stderr);
    assert.match(
      stopped.stdout,
      /^Stopped the runs page at http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/ \(\d+ requests\)\.$/m,
    );
  }
});

test('BROWSER opens the printed URL; a named run opens directly; --port is honoured, a taken one refused', async () => {
  const file = join(project.cwd, '..', 'browser-url.txt');
  const runId = parentRun.runDirectory.split('/').pop()!;
  const free = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number};
      server.close(() => resolve(port));
    });
  });
  const page = await startRunsPage([parentRun.executionId.slice(0, 10), '--port', String(free)], {
    cwd: project.cwd,
    env: {...project.env, BROWSER: `${process.execPath} ${recordUrlScript} ${file}`},
  });
  try {
    assert.equal(new URL(page.url).port, String(free));
    assert.ok(page.url.endsWith(`/#/runs/${runId}`), page.url);
    const opened = await pollUntil(() => readFile(file, 'utf8').catch(() => ''), {timeoutMs: 30_000});
    assert.equal(opened, page.url, 'the BROWSER command received the printed URL');
    const tab = await browser.context.newPage();
    await tab.goto(opened);
    await tab.waitForSelector('body[data-view=run]');
    assert.equal(await tab.textContent('.run-head h1'), 'parent');
    await tab.close();

    const taken = await project.cli(['runs', 'open', '--no-browser', '--port', String(free), '--json']);
    assert.equal(taken.exitCode, 1);
    assert.equal(taken.json.error.code, 'STRATOS_VIEWER_PORT_UNAVAILABLE');
    const missing = await project.cli(['runs', 'open', 'no-such-run', '--no-browser', '--json']);
    assert.equal(missing.json.error.code, 'STRATOS_RUNS_NOT_FOUND');
    const badPort = await project.cli(['runs', 'open', '--port', 'http', '--json']);
    assert.equal(badPort.json.error.code, 'STRATOS_CLI_USAGE');

    // A browser that cannot be started is a warning: the page is served all the same.
    const noBrowser = await startRunsPage(['--json'], {
      cwd: project.cwd,
      env: {...project.env, BROWSER: '/nonexistent/browser-command'},
    });
    assert.equal((await rawGet(noBrowser.url, `${new URL(noBrowser.url).pathname}api/runs`)).status, 200);
    await pollUntil(() => noBrowser.stderr().includes('browser could not be opened'), {timeoutMs: 30_000});
    const warned = await noBrowser.stop();
    assert.equal(warned.exitCode, 0, warned.stderr);
    assert.match(warned.stderr, /The browser could not be opened for the runs page .*browser-command/);
    const envelope = JSON.parse(warned.stdout);
    assert.equal(envelope.data.browserOpened, false);
    assert.deepEqual(
      envelope.warnings.map((w: {code: string}) => w.code),
      ['STRATOS_VIEWER_BROWSER_FAILED'],
    );
  } finally {
    const stopped = await page.stop();
    assert.equal(stopped.exitCode, 0, stopped.stderr);
  }
});

test('the page shows the runs of its directory only, every directory with --all', async () => {
  const elsewhere = join(project.cwd, '..');
  const runId = parentRun.runDirectory.split('/').pop()!;
  const local = await startRunsPage(['--no-browser'], {cwd: elsewhere, env: project.env});
  try {
    const base = new URL(local.url).pathname;
    const listed = JSON.parse((await rawGet(local.url, `${base}api/runs`)).body);
    assert.deepEqual(listed.runs, []);
    assert.deepEqual(listed.scope, {all: false, directory: elsewhere});
    assert.equal(
      (await rawGet(local.url, `${base}api/runs/${runId}`)).status,
      404,
      'not in scope: not served',
    );
  } finally {
    await local.stop();
  }
  const all = await startRunsPage(['--no-browser', '--all'], {cwd: elsewhere, env: project.env});
  try {
    const base = new URL(all.url).pathname;
    const listed = JSON.parse((await rawGet(all.url, `${base}api/runs`)).body);
    assert.equal(listed.runs.length, 4);
    assert.ok(
      listed.runs.every((run: {invocationDirectory: string}) => run.invocationDirectory === project.cwd),
    );
    const detail = JSON.parse((await rawGet(all.url, `${base}api/runs/${runId}`)).body);
    assert.equal(detail.run.workflow, 'parent');
    assert.equal(detail.view.spans.length, 18);
  } finally {
    await all.stop();
  }
});
