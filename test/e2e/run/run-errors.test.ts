// Errors that say where, and each fact once, through the real CLI: a throw in workflow code named by its line in
// the authored .ts file (readable, --json, --verbose, run.log, runs show), a failing MCP call by the line of the
// call; an MCP tool error's content instead of
// `[object Object]`; no `Caused by` that repeats its parent, no build finding or notice printed twice; runs list
// with headers, ages and error codes; runs show with call labels, --console and one status vocabulary.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {startRunsPage} from '../../helpers/runs-page.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {pollUntil} from '../../helpers/wait-for.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

let project: TempProject;
let boomDirectory: string;

// `throw` is on line 6, column 11; run calls check on line 14.
const boomTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

function check(n: number): void {
  if (n > 3) {
    throw new Error(\`bad n \${n}\`);
  }
}

export default workflow({
  input: z.strictObject({n: z.number().describe('A number')}),
  output: z.object({ok: z.boolean().describe('Done')}),
  run({n}) {
    check(n);
    return {ok: true};
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
    console.log('echoed twice');
    console.error('now the failing tool');
    const schemas = await createSchemas();
    await schemas.is_error({});
    return {};
  },
});
`;

const sleepyTs = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({}),
  async run() {
    console.error('sleeping');
    await new Promise((resolve) => setTimeout(resolve, 120_000));
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
  project = await createTempProject('stratos-run-errors-');
  boomDirectory = await project.writeWorkflow('boom', {
    'workflow.yaml': manifest('boom'),
    'workflow.ts': boomTs,
  });
  await project.writeWorkflow('tools', {
    'workflow.yaml': manifest(
      'tools',
      `mcp:\n  servers:\n${stdioServer('counter')}${stdioServer('schemas')}`,
    ),
    'workflow.ts': toolsTs,
  });
  await project.writeWorkflow('sleepy', {'workflow.yaml': manifest('sleepy'), 'workflow.ts': sleepyTs});
  await project.writeWorkflow('broken', {
    'workflow.yaml': manifest('broken'),
    'workflow.ts': boomTs.replace('check(n);', "const s: number = 'x';\n    check(s);"),
  });
});

after(() => project.remove());

test('a throw in workflow code names its line in the authored .ts file everywhere the error is shown', async () => {
  const readable = await project.cli(['run', 'boom', '--input', '{"n":5}']);
  assert.equal(readable.exitCode, 1);
  assert.equal(
    readable.stderr,
    "error STRATOS_RUN_FAILED: Workflow 'boom' failed: bad n 5\n  at workflow.ts:6:11\n",
    'the location, and no Caused by that repeats the message',
  );

  const json = await project.cli(['run', 'boom', '--input', '{"n":5}', '--json']);
  assert.deepEqual(json.json.error.location, {file: 'workflow.ts', line: 6, column: 11});
  assert.equal(json.json.error.details.stack, undefined, 'the stack only with --verbose');

  const verbose = await project.cli(['run', 'boom', '--input', '{"n":5}', '--verbose']);
  assert.match(verbose.stderr, /^ {2}at workflow\.ts:6:11$/m);
  assert.ok(verbose.stderr.includes(`at check (${join(boomDirectory, 'workflow.ts')}:6:11)`), verbose.stderr);
  assert.ok(verbose.stderr.includes(`${join(boomDirectory, 'workflow.ts')}:14:5`), verbose.stderr);
  assert.doesNotMatch(verbose.stderr, /dist\/boom\/workflow\.js/, 'every workflow frame is mapped');
  const verboseJson = await project.cli(['run', 'boom', '--input', '{"n":5}', '--verbose', '--json']);
  assert.ok(verboseJson.json.error.details.stack.includes(`${join(boomDirectory, 'workflow.ts')}:6:11`));

  const runDirectory: string = json.json.error.details.runDirectory;
  const log = await readFile(join(runDirectory, 'run.log'), 'utf8');
  assert.match(
    log,
    /end {3}workflow boom: failed in [\d.]+ ms \(STRATOS_RUN_FAILED: .* at workflow\.ts:6:11\)/,
  );
  const record = JSON.parse(await readFile(join(runDirectory, 'run.json'), 'utf8'));
  assert.deepEqual(record.error.location, {file: 'workflow.ts', line: 6, column: 11});

  const show = await project.cli(['runs', 'show', json.json.error.details.executionId]);
  assert.match(
    show.stdout,
    /^error STRATOS_RUN_FAILED: Workflow 'boom' failed: bad n 5 \(at workflow\.ts:6:11\)$/m,
  );
  assert.match(
    show.stdout,
    /^workflow boom [0-9a-f]{8} failed [\d.]+ ms {2}STRATOS_RUN_FAILED$/m,
    show.stdout,
  );
});

test("an MCP tool error shows the tool's own words, never [object Object], and each fact once", async () => {
  const readable = await project.cli(['run', 'tools']);
  assert.equal(readable.exitCode, 1);
  assert.doesNotMatch(readable.stderr, /object Object/);
  assert.match(
    readable.stderr,
    /^error STRATOS_MCP_TOOL_ERROR: The MCP tool 'is_error' of server 'schemas' reported an error: is_error: the tool failed on purpose$/m,
  );
  assert.doesNotMatch(readable.stderr, /Caused by/, 'the cause says what the message says');
  assert.match(readable.stderr, /^ {2}at workflow\.ts:16:5$/m, 'the line of the failing call');

  const json = await project.cli(['run', 'tools', '--json']);
  assert.deepEqual(json.json.error.details.causes, [{message: 'is_error: the tool failed on purpose'}]);
  assert.deepEqual(json.json.error.location, {file: 'workflow.ts', line: 16, column: 5});

  const show = await project.cli(['runs', 'show', json.json.error.details.executionId, '--json']);
  const events = await readFile(join(json.json.error.details.runDirectory, 'events.jsonl'), 'utf8');
  assert.doesNotMatch(events, /object Object/);
  assert.doesNotMatch(JSON.stringify(show.json), /object Object/);
});

test('runs show labels each call by its key argument, shows console lines, and says each error once', async () => {
  const json = await project.cli(['run', 'tools', '--json']);
  const id: string = json.json.error.details.executionId;
  const show = await project.cli(['runs', 'show', id]);
  assert.equal(show.exitCode, 0, show.stderr);
  assert.match(show.stdout, /mcp\.call tools\/call echo text=src\/first\.ts succeeded [\d.]+ ms/);
  assert.match(show.stdout, /mcp\.call tools\/call echo text=src\/second\.ts succeeded [\d.]+ ms/);
  assert.doesNotMatch(show.stdout, /\b(ok|error) [\d.]+ ms/, 'one vocabulary: succeeded and failed');
  // The error once in the header; in the tree only its code, where it happened; not on the workflow.
  assert.equal(show.stdout.match(/reported an error/g)?.length, 1, show.stdout);
  assert.match(show.stdout, /tools\/call is_error failed [\d.]+ ms {2}STRATOS_MCP_TOOL_ERROR$/m);
  assert.match(show.stdout, /^workflow tools [0-9a-f]{8} failed [\d.]+ ms {2}2 console$/m);

  const withConsole = await project.cli(['runs', 'show', id, '--console']);
  assert.match(withConsole.stdout, /^│ {2}log {3}echoed twice$/m, withConsole.stdout);
  assert.match(withConsole.stdout, /^│ {2}error now the failing tool$/m);
  const data = await project.cli(['runs', 'show', id, '--console', '--json']);
  assert.deepEqual(
    data.json.data.tree[0].console.map((line: {level: string; message: string}) => [
      line.level,
      line.message,
    ]),
    [
      ['log', 'echoed twice'],
      ['error', 'now the failing tool'],
    ],
  );
});

test('runs list has column headers, ages and the failing code', async () => {
  const list = await project.cli(['runs', 'list']);
  assert.equal(list.exitCode, 0, list.stderr);
  const [header, ...rows] = list.stdout.trimEnd().split('\n');
  assert.match(header!, /^RUN +WORKFLOW +STATUS +STARTED +DURATION +COST +ERROR$/);
  assert.ok(rows.length > 0);
  for (const row of rows) {
    assert.match(
      row,
      /^\d{8}T\d{9}Z-[0-9a-f]{16} {2}\w+ +(succeeded|failed|cancelled) +(just now|\d+ s ago|\d+ min ago) +[\d.]+ ms +(\$[\d.]+(\+\?)? +)?STRATOS_[A-Z_]+$/,
    );
  }
  // Columns line up: every row's STATUS starts where the header's does.
  const statusColumn = header!.indexOf('STATUS');
  for (const row of rows) assert.match(row.slice(statusColumn), /^(succeeded|failed|cancelled)/);
});

test('a failed build lists each finding once', async () => {
  const build = await project.cli(['build', 'broken']);
  assert.equal(build.exitCode, 1);
  assert.equal(build.stderr.match(/TS2322/g)?.length, 1, build.stderr);
  assert.match(build.stderr, /^✗ failed broken/m);
  assert.match(
    build.stderr,
    /^error STRATOS_BUILD_TYPE_ERROR: Workflow 'broken' failed to build \(1 error\)\. Fix the findings listed above and build again\.\n$/m,
  );
  const json = await project.cli(['build', 'broken', '--json']);
  assert.equal(json.json.error.details.workflows[0].diagnostics.length, 1);
  assert.equal(json.json.error.location.line, 14, 'the first finding is still the location');
  assert.match(json.json.error.message, /TS2322/, '--json callers still read the finding in the message');
  // `stratos run` shows no list, so its error still carries the finding.
  const run = await project.cli(['run', 'broken', '--input', '{"n":1}']);
  assert.equal(run.stderr.match(/TS2322/g)?.length, 1, run.stderr);
});

test('a usage error and Ctrl+C say their message once', async () => {
  const usage = await project.cli(['run', 'boom', '--bogus']);
  assert.equal(usage.exitCode, 1);
  assert.match(usage.stderr, /^error STRATOS_CLI_USAGE: Unknown option '--bogus'/);
  assert.doesNotMatch(usage.stderr, /Caused by/);

  const child = spawn(process.execPath, [cliPath, 'run', 'sleepy'], {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('sleeping')) resolve();
    }),
  );
  child.kill('SIGINT');
  await new Promise((resolve) => child.on('close', resolve));
  assert.match(stderr, /error STRATOS_RUN_CANCELLED: /);
  assert.doesNotMatch(stderr, /Caused by/, stderr);
});

test('a browser that cannot be opened is reported once, not again as a warning at the end', async () => {
  const page = await startRunsPage([], {
    cwd: project.cwd,
    env: {...project.env, BROWSER: '/nonexistent/browser-command'},
  });
  await pollUntil(() => page.stderr().includes('browser could not be opened'), {timeoutMs: 60_000});
  const stopped = await page.stop();
  assert.equal(stopped.exitCode, 0, stopped.stderr);
  assert.equal(stopped.stderr.match(/browser could not be opened/g)?.length, 1, stopped.stderr);
});
