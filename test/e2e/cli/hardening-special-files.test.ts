// Hardening, files a user names are read only when they are regular files, and run input is bounded, through the
// real CLI: a `{file:}` reference, `--input-file`, a test case file and the target of `stratos runs record` that
// is a FIFO, a directory, a device or a broken link each get one coded error naming the path and what it is,
// instead of blocking forever or reading without end; `--input -` and `--input-file` stop at the input limit.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdir, rm, symlink, truncate, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const q = JSON.stringify;
let project: TempProject;
let fifo: string;

/** The CLI's limit on `--input -` and `--input-file` (MAX_INPUT_BYTES in src/cli/commands/run.ts). */
const inputLimit = 64 * 1024 * 1024;

before(async () => {
  project = await createTempProject('stratos-hardening-files-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  fifo = join(project.cwd, 'a-fifo');
  execFileSync('mkfifo', [fifo]);
  await mkdir(join(project.cwd, 'a-folder'));
  await symlink(join(project.cwd, 'nowhere'), join(project.cwd, 'dangling'));
  await symlink(join(project.cwd, 'loop-b'), join(project.cwd, 'loop-a'));
  await symlink(join(project.cwd, 'loop-a'), join(project.cwd, 'loop-b'));
});

after(() => project.remove());

/** A workflow whose stdio MCP server takes an environment value from `{file:<target>}`. */
function referencing(name: string, target: string): string {
  return manifest(
    name,
    `mcp:\n  servers:\n    tools:\n      type: stdio\n      command: ${q(process.execPath)}\n      args: ["-e", ""]\n      env:\n        SECRET: "{file:${target}}"\n`,
  );
}

const special = [
  [
    'a FIFO',
    'fifo',
    () => fifo,
    'STRATOS_CONFIG_FILE_NOT_REGULAR',
    /is a FIFO \(named pipe\), not a regular file/,
  ],
  ['/dev/zero', 'zero', () => '/dev/zero', 'STRATOS_CONFIG_FILE_NOT_REGULAR', /is a character device/],
  [
    'a directory',
    'folder',
    () => join(project.cwd, 'a-folder'),
    'STRATOS_CONFIG_FILE_NOT_REGULAR',
    /is a directory/,
  ],
  [
    'a dangling link',
    'dangling',
    () => join(project.cwd, 'dangling'),
    'STRATOS_CONFIG_FILE_MISSING',
    /ENOENT/,
  ],
  ['a link loop', 'loop', () => join(project.cwd, 'loop-a'), 'STRATOS_CONFIG_FILE_MISSING', /ELOOP/],
] as const;

for (const [what, name, target, code, message] of special) {
  test(`a {file:} reference to ${what} is ${code}, naming the path`, async () => {
    await project.writeWorkflow(`ref-${name}`, {'workflow.yaml': referencing(`ref-${name}`, target())});
    const result = await project.cli(['build', `ref-${name}`, '--json']);
    assert.equal(result.exitCode, 1, result.stdout + result.stderr);
    const [diagnostic] = result.json.error.details.workflows[0].diagnostics;
    assert.equal(diagnostic.code, code, result.stdout);
    assert.match(diagnostic.message, message);
    assert.ok(diagnostic.message.includes(target()), diagnostic.message);
  });
}

test('--input-file naming a FIFO, /dev/zero or a folder is STRATOS_INPUT_FILE_UNREADABLE saying what it is', async () => {
  for (const [path, kind] of [
    [fifo, 'a FIFO (named pipe)'],
    ['/dev/zero', 'a character device'],
    [join(project.cwd, 'a-folder'), 'a directory'],
  ] as const) {
    const result = await project.cli(['run', 'echo', '--input-file', path, '--json']);
    assert.equal(result.exitCode, 1, result.stdout);
    assert.equal(result.json.error.code, 'STRATOS_INPUT_FILE_UNREADABLE', result.stdout);
    assert.equal(result.json.error.message.includes(`${path} is ${kind}, not a regular file`), true);
  }
});

test('an --input-file over the input limit is STRATOS_INPUT_TOO_LARGE without being read', async () => {
  // Sparse: the size is what counts, and no disk space is used.
  const file = join(project.cwd, 'huge.json');
  await writeFile(file, '');
  await truncate(file, inputLimit + 1);
  const result = await project.cli(['run', 'echo', '--input-file', file, '--json']);
  assert.equal(result.exitCode, 1, result.stdout);
  assert.equal(result.json.error.code, 'STRATOS_INPUT_TOO_LARGE', result.stdout);
  assert.match(result.json.error.message, /over the 64 MiB input limit/);
  await rm(file);
});

test('--input - fed without end stops at the input limit with STRATOS_INPUT_TOO_LARGE', async () => {
  const child = spawn(process.execPath, [cliPath, 'run', 'echo', '--input', '-', '--json'], {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.resume();
  // Like `yes '{}' |`: write until the CLI stops reading and closes its end.
  const chunk = Buffer.from('{}\n'.repeat(64 * 1024));
  let open = true;
  child.stdin.on('error', () => (open = false));
  child.on('close', () => (open = false));
  const pump = () => {
    while (open && child.stdin.write(chunk));
    if (open) child.stdin.once('drain', pump);
  };
  pump();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 1, stdout.slice(0, 2000));
  const envelope = JSON.parse(stdout);
  assert.equal(envelope.error.code, 'STRATOS_INPUT_TOO_LARGE', stdout);
  assert.match(envelope.error.message, /The input read from stdin is over the 64 MiB input limit/);
});

test('a case file that is a FIFO, a folder or a dangling link is STRATOS_TEST_CASE_INVALID, never a wait', async () => {
  const directory = await project.writeWorkflow('cased', {
    'workflow.yaml': manifest('cased'),
    'workflow.ts': echoWorkflow,
    'tests/ok.yaml': 'input: {text: hi}\noutput: {echo: HI}\n',
  });
  execFileSync('mkfifo', [join(directory, 'tests', 'pipe.yaml')]);
  await mkdir(join(directory, 'tests', 'folder.yaml'));
  await symlink(join(directory, 'nowhere.yaml'), join(directory, 'tests', 'dangling.yaml'));
  const result = await project.cli(['test', 'cased', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const cases = new Map<string, {status: string; problems: {code: string; message: string}[]}>(
    result.json.error.details.cases.map((c: {case: string}) => [c.case, c]),
  );
  assert.equal(cases.get('ok')?.status, 'passed', result.stdout);
  for (const [name, words] of [
    ['pipe', /is a FIFO \(named pipe\), not a regular file/],
    ['folder', /is a directory, not a regular file/],
    ['dangling', /ENOENT/],
  ] as const) {
    const report = cases.get(name);
    assert.equal(report?.status, 'errored', `${name}: ${JSON.stringify(report)}`);
    assert.equal(report?.problems[0]?.code, 'STRATOS_TEST_CASE_INVALID');
    assert.match(report?.problems[0]?.message ?? '', words);
  }
});

test('runs record onto a case name taken by a FIFO is STRATOS_TEST_CASE_EXISTS without opening it', async () => {
  const run = await project.cli(['run', 'echo', '--input', q({text: 'hi'}), '--json']);
  assert.equal(run.exitCode, 0, run.stdout);
  const tests = join(project.projectRoot, 'echo', 'tests');
  await mkdir(tests, {recursive: true});
  execFileSync('mkfifo', [join(tests, 'taken.yaml')]);
  const result = await project.cli([
    'runs',
    'record',
    run.json.data.executionId,
    '--case',
    'taken',
    '--json',
  ]);
  assert.equal(result.exitCode, 1, result.stdout);
  assert.equal(result.json.error.code, 'STRATOS_TEST_CASE_EXISTS', result.stdout);
  assert.match(result.json.error.message, /already exists as a FIFO \(named pipe\)/);
});

test('a case file over the YAML alias limits is STRATOS_TEST_CASE_INVALID at the alias, not a long wait', async () => {
  const many = ['input: {text: &t hi}', 'output: {echo: HI}', 'agents:'];
  for (let i = 0; i < 1001; i++) many.push(`  - {agent: a, reply: *t}`);
  // Each level lists the one before ten times: level 5 stands for 100,000 values.
  const bomb = ['l0: &l0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let level = 1; level <= 5; level++) {
    bomb.push(
      `l${level}: &l${level} [${Array(10)
        .fill(`*l${level - 1}`)
        .join(', ')}]`,
    );
  }
  await project.writeWorkflow('aliased', {
    'workflow.yaml': manifest('aliased'),
    'workflow.ts': echoWorkflow,
    'tests/many.yaml': `${many.join('\n')}\n`,
    'tests/bomb.yaml': `input: {text: hi}\noutput: {echo: HI}\n${bomb.join('\n')}\n`,
  });
  const result = await project.cli(['test', 'aliased', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const problems = new Map<string, {code: string; message: string}>(
    result.json.error.details.cases.map((c: {case: string; problems: {code: string; message: string}[]}) => [
      c.case,
      c.problems[0],
    ]),
  );
  assert.equal(problems.get('many')?.code, 'STRATOS_TEST_CASE_INVALID');
  assert.match(
    problems.get('many')?.message ?? '',
    /more than 1,000 YAML aliases \(the alias '\*t' at line 1004, column 23/,
  );
  assert.equal(problems.get('bomb')?.code, 'STRATOS_TEST_CASE_INVALID');
  assert.match(problems.get('bomb')?.message ?? '', /stand for more than 10,000 values/);
});

test('an agent prompt file that is a FIFO is STRATOS_PROMPT_FILE_MISSING saying so, not a build that waits', async () => {
  const directory = await project.writeWorkflow('prompted', {
    'workflow.yaml': manifest('prompted', 'agents:\n  writer:\n    systemPrompt: {file: prompts/pipe.md}\n'),
    'workflow.ts': echoWorkflow,
  });
  await mkdir(join(directory, 'prompts'));
  execFileSync('mkfifo', [join(directory, 'prompts', 'pipe.md')]);
  const result = await project.cli(['build', 'prompted', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const [diagnostic] = result.json.error.details.workflows[0].diagnostics;
  assert.equal(diagnostic.code, 'STRATOS_PROMPT_FILE_MISSING', result.stdout);
  assert.match(diagnostic.message, /pipe\.md is a FIFO \(named pipe\), not a regular file/);
});
