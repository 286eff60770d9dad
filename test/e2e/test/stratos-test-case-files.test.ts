// Case files as untrusted input, through the real CLI: `stratos runs record --case` takes only names the workflow
// rule allows and never follows or replaces a link; a case file's depth, own keys and placeholders are checked
// before anything runs.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {lstat, readdir, readFile, readlink, rm, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {parse} from 'yaml';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;
let tests: string;
let runId: string;

before(async () => {
  project = await createTempProject('stratos-case-files-');
  const directory = await project.writeWorkflow('echo', {
    'workflow.yaml': manifest('echo'),
    'workflow.ts': echoWorkflow,
  });
  tests = join(directory, 'tests');
  const run = await project.cli(['run', 'echo', '--input', '{"text":"hi"}', '--json']);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  runId = run.json.data.executionId;
});

after(async () => {
  await project?.remove();
});

function record(name: string) {
  return project.cli(['runs', 'record', runId, '--case', name, '--json']);
}

/** A coded failure with no stack and no internal error. */
function assertCoded(result: Awaited<ReturnType<typeof record>>, code: string): void {
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.equal(result.json.error.code, code, result.stdout);
  assert.ok(!/\n\s+at /.test(result.stdout + result.stderr), 'no stack trace');
}

test('runs record refuses case names the workflow-name rule refuses, with a coded error', async () => {
  const long = await record('a'.repeat(300));
  assertCoded(long, 'STRATOS_TEST_CASE_NAME_INVALID');
  assert.match(long.json.error.message, /300 characters; the limit is 64/);
  assert.ok(!long.json.error.message.includes('a'.repeat(100)), 'the long name is shortened in the message');

  const extension = await record('greeting.yaml');
  assertCoded(extension, 'STRATOS_TEST_CASE_NAME_INVALID');
  assert.match(extension.json.error.message, /Give --case greeting\./);

  const device = await record('CON');
  assertCoded(device, 'STRATOS_TEST_CASE_NAME_INVALID');
  assert.equal((await record('nul')).json.error.code, 'STRATOS_TEST_CASE_NAME_INVALID');
  assert.equal((await record('Upper_Case')).json.error.code, 'STRATOS_TEST_CASE_NAME_INVALID');
  assert.ok(!existsSync(tests), 'nothing was written');

  const good = await record('greeting');
  assert.equal(good.exitCode, 0, good.stdout + good.stderr);
  assert.equal(good.json.data.file, join(tests, 'greeting.yaml'));
});

test('runs record never follows or replaces a symbolic link, dangling or not, at the case path', async () => {
  const target = join(project.cwd, 'elsewhere.yaml');
  await symlink(target, join(tests, 'dangling.yaml'));
  const result = await record('dangling');
  assertCoded(result, 'STRATOS_TEST_CASE_EXISTS');
  assert.match(result.json.error.message, /is a symbolic link/);
  assert.ok(!existsSync(target), 'the link was not followed');
  assert.ok((await lstat(join(tests, 'dangling.yaml'))).isSymbolicLink());
  assert.equal(await readlink(join(tests, 'dangling.yaml')), target);

  // A case of the same name with another extension is the same case.
  await writeFile(join(tests, 'other.json'), '{"input": {"text": "hi"}, "output": {"echo": "HI"}}');
  const other = await record('other');
  assertCoded(other, 'STRATOS_TEST_CASE_EXISTS');
  assert.match(other.json.error.message, /other\.json already exists/);
  assert.deepEqual((await readdir(tests)).sort(), ['dangling.yaml', 'greeting.yaml', 'other.json']);
});

/** Echoes its text; `extra` holds a field named like an Object.prototype member. */
const keysWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to echo')}),
  output: z.object({
    echo: z.string().describe('The text'),
    extra: z.record(z.string(), z.string()).describe('Fields with awkward names'),
  }),
  run({text}) {
    return {echo: text, extra: {constructor: 'made'}};
  },
});
`;

test('case files keep the depth limit and the own keys of workflow input', async () => {
  const directory = await project.writeWorkflow('keys', {
    'workflow.yaml': manifest('keys'),
    'workflow.ts': keysWorkflow,
    'tests/ok.yaml': 'input: {text: hi}\noutput: {echo: hi, extra: {constructor: made}}\n',
    'tests/deep.yaml': `input:\n  text: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
    'tests/deep-json.json': `{"input": {"text": ${'['.repeat(5000)}${']'.repeat(5000)}}, "match": {}}`,
    'tests/extra-key.yaml': 'input: {text: hi}\noutput: {echo: hi, extra: {}}\n',
    'tests/match-constructor.yaml': 'input: {text: hi}\nmatch: {constructor: made}\n',
    'tests/proto-input.yaml':
      'input:\n  text: hi\n  __proto__: {text: evil}\noutput: {echo: hi, extra: {constructor: made}}\n',
  });
  assert.ok(directory.endsWith('keys'));
  const result = await project.cli(['test', 'keys', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.equal(result.json.error.code, 'STRATOS_TEST_CASES_FAILED', result.stdout);
  type Report = {case: string; status: string; problems: {code: string; message: string}[]; diff: string[]};
  const cases: Record<string, Report> = Object.fromEntries(
    (result.json.error.details.cases as Report[]).map((report) => [report.case, report]),
  );
  assert.equal(cases.ok?.status, 'passed', JSON.stringify(cases.ok));

  for (const name of ['deep', 'deep-json']) {
    const report = cases[name]!;
    assert.equal(report.status, 'errored', name);
    assert.equal(report.problems[0]?.code, 'STRATOS_TEST_CASE_INVALID');
    assert.match(report.problems[0]!.message, /more than 105 levels deep at .*keeps to 100 levels/s);
    assert.doesNotMatch(report.problems[0]!.message, /call stack/i);
  }
  assert.match(cases.deep!.problems[0]!.message, /at line 2, column/);

  // An own key named like an Object.prototype member is a field in both directions.
  assert.equal(cases['extra-key']?.status, 'failed');
  assert.deepEqual(cases['extra-key']?.diff, ['output.extra.constructor: not expected, got "made"']);
  assert.equal(cases['match-constructor']?.status, 'failed');
  assert.deepEqual(cases['match-constructor']?.diff, [
    'output.constructor: expected "made", but it is missing',
  ]);

  // __proto__ in the input reaches the contract as the key it is, as it does from --input JSON.
  assert.equal(cases['proto-input']?.status, 'errored', JSON.stringify(cases['proto-input']));
  assert.equal(cases['proto-input']?.problems[0]?.code, 'STRATOS_INPUT_INVALID');
  assert.match(cases['proto-input']!.problems[0]!.message, /__proto__/);
  const direct = await project.cli([
    'run',
    'keys',
    '--input',
    '{"text":"hi","__proto__":{"text":"evil"}}',
    '--json',
  ]);
  assert.equal(direct.json.error.code, 'STRATOS_INPUT_INVALID');
});

/** Echoes a path it is given, and where it ran. */
const pathsWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({file: z.string().describe('A file path')}),
  output: z.object({file: z.string().describe('The path'), ranIn: z.string().describe('The current directory')}),
  run({file}) {
    return {file, ranIn: process.cwd()};
  },
});
`;

test('a recorded case holds no absolute path of this machine, and replays here', async () => {
  const directory = await project.writeWorkflow('paths', {
    'workflow.yaml': manifest('paths'),
    'workflow.ts': pathsWorkflow,
  });
  const input = JSON.stringify({file: join(project.cwd, 'notes', 'a.txt')});
  const run = await project.cli(['run', 'paths', '--input', input, '--json']);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  const recorded = await project.cli([
    'runs',
    'record',
    run.json.data.executionId,
    '--case',
    'here',
    '--json',
  ]);
  assert.equal(recorded.exitCode, 0, recorded.stdout + recorded.stderr);
  const text = await readFile(join(directory, 'tests', 'here.yaml'), 'utf8');
  for (const path of [project.cwd, project.home, directory, project.env.HOME as string]) {
    assert.ok(!text.includes(path), `the case holds ${path}:\n${text}`);
  }
  const saved = parse(text);
  assert.deepEqual(saved.input, {file: '{cwd}/notes/a.txt'});
  assert.deepEqual(saved.output, {file: '{cwd}/notes/a.txt', ranIn: '{cwd}'});

  const replay = await project.cli(['test', 'paths', '--json']);
  assert.equal(replay.exitCode, 0, replay.stdout + replay.stderr);
  assert.equal(replay.json.data.cases[0].status, 'passed');
});

test('a case that still holds [NEEDS VALUE] fails until it is filled in, naming the field', async () => {
  const directory = await project.writeWorkflow('unfilled', {
    'workflow.yaml': manifest('unfilled'),
    'workflow.ts': echoWorkflow,
    'tests/pending.yaml': 'input: {text: hi}\noutput: {echo: "[NEEDS VALUE]"}\n',
    // It would pass as it is: the placeholder is a valid text.
    'tests/pending-input.yaml': 'input: {text: "[NEEDS VALUE]"}\nmatch: {}\n',
  });
  const result = await project.cli(['test', 'unfilled', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  type Report = {case: string; status: string; problems: {code: string; message: string}[]};
  const reports: Report[] = result.json.error.details.cases;
  const report = reports.find((item) => item.case === 'pending')!;
  const inputReport = reports.find((item) => item.case === 'pending-input')!;
  assert.equal(inputReport.status, 'errored');
  assert.equal(inputReport.problems[0]!.code, 'STRATOS_TEST_CASE_NEEDS_VALUE');
  assert.match(inputReport.problems[0]!.message, /at input\.text\./);
  await rm(join(directory, 'tests', 'pending-input.yaml'));
  assert.equal(report.status, 'errored');
  assert.equal(report.problems[0]!.code, 'STRATOS_TEST_CASE_NEEDS_VALUE');
  assert.match(
    report.problems[0]!.message,
    /still holds \[NEEDS VALUE\] at output\.echo\. Write the real value/,
  );

  await writeFile(join(directory, 'tests', 'pending.yaml'), 'input: {text: hi}\noutput: {echo: HI}\n');
  const filled = await project.cli(['test', 'unfilled', '--json']);
  assert.equal(filled.exitCode, 0, filled.stdout + filled.stderr);
});
