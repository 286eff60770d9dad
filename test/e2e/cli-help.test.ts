// Help through the real binary: root help is the command summary followed by the bundled SKILL.md with its
// absolute path; command help is short and never needs discovery (broken or ambiguous workflows do not matter).
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../helpers/temp-project.ts';

const skillPath = fileURLToPath(new URL('../../skills/stratos-workflows/SKILL.md', import.meta.url));
const commandNames = ['list', 'describe', 'schema', 'run', 'build', 'clean'];

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-help-');
  // Everything discovery would trip over: malformed YAML and a name in both roots.
  await project.writeWorkflow('broken', {'workflow.yaml': 'name: [broken\n', 'workflow.ts': echoWorkflow});
  for (const root of ['project', 'user'] as const) {
    await project.writeWorkflow(
      'twin',
      {'workflow.yaml': manifest('twin'), 'workflow.ts': echoWorkflow},
      root,
    );
  }
});

after(() => project.remove());

test('root help lists every command, then prints the bundled SKILL.md with its absolute path', async () => {
  assert.ok(existsSync(skillPath), `the package ships ${skillPath}`);
  const skill = readFileSync(skillPath, 'utf8');
  for (const args of [[], ['--help'], ['-h']]) {
    const result = await project.cli(args);
    assert.equal(result.exitCode, 0, `stratos ${args.join(' ')}`);
    assert.equal(result.stderr, '');
    const summaryEnd = result.stdout.indexOf(skillPath);
    assert.ok(summaryEnd > 0, 'the absolute path of SKILL.md is printed');
    const summary = result.stdout.slice(0, summaryEnd);
    for (const name of commandNames) assert.match(summary, new RegExp(`^  ${name} +\\S`, 'm'));
    assert.ok(result.stdout.endsWith(skill), 'SKILL.md follows the summary, verbatim');
    assert.ok(result.stdout.indexOf(skill) > summaryEnd, 'the summary comes first');
  }
});

test('command help is short, names the usage and exits 0 for every command', async () => {
  for (const name of commandNames) {
    const result = await project.cli([name, '--help']);
    assert.equal(result.exitCode, 0, `${name} --help: ${result.stderr}`);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, new RegExp(`Usage: stratos ${name}`));
    assert.match(result.stdout, /--json/);
    assert.ok(result.stdout.split('\n').length <= 20, `${name} help is short`);
    assert.ok(!result.stdout.includes(readFileSync(skillPath, 'utf8').slice(0, 200)), 'no skill text');
  }
});

test('help forms agree: `help run`, `run --help` and `run -h`', async () => {
  const outputs = await Promise.all([
    project.cli(['help', 'run']),
    project.cli(['run', '--help']),
    project.cli(['run', '-h']),
  ]);
  for (const output of outputs) assert.equal(output.stdout, outputs[1]!.stdout);
});

test('command help needs no discovery: ambiguous and broken targets still get help, nothing is written', async () => {
  const before = await readdir(project.projectRoot);
  for (const args of [
    ['run', 'twin', '--help'],
    ['describe', 'broken', '--help'],
    ['build', '--help'],
    ['schema', '--name', 'twin', '--help'],
    ['clean', '--help'],
  ]) {
    const result = await project.cli(args);
    assert.equal(result.exitCode, 0, `${args.join(' ')}: ${result.stderr}`);
    assert.doesNotMatch(result.stdout + result.stderr, /STRATOS_/);
  }
  assert.deepEqual(
    await readdir(project.projectRoot),
    before,
    'no package.json, .gitignore or link was made',
  );
  for (const folder of ['broken', 'twin']) assert.ok(!existsSync(join(project.projectRoot, folder, 'dist')));
});

test('an unknown command is a usage error that points at --help', async () => {
  const result = await project.cli(['deploy']);
  assert.equal(result.exitCode, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^error STRATOS_CLI_USAGE: Unknown command 'deploy'\. Run 'stratos --help'/);
});
