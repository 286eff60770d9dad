// Help through the real binary: root help is the command summary followed by the bundled SKILL.md with its
// absolute path; command help is short and never needs discovery (broken or ambiguous workflows do not matter).
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const groups = ['mcp', 'runs', 'skill', 'provider', 'tools'];

const skillPath = fileURLToPath(new URL('../../../skills/stratos-workflows/SKILL.md', import.meta.url));
const commandNames = ['list', 'describe', 'schema', 'run', 'build', 'clean'];

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-help-');
  // Everything discovery would trip over: malformed YAML and a name in both roots.
  await project.writeWorkflow('broken', {'workflow.yaml': 'name: [broken\n', 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('greet', {'workflow.yaml': manifest('greet'), 'workflow.ts': echoWorkflow});
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

test('root help fits one screen: grouped commands in at most 24 lines of 100 columns, then a divider, then the skill', async () => {
  const result = await project.cli(['--help']);
  const lines = result.stdout.split('\n');
  const divider = lines.findIndex((line) => /^─+ .*SKILL\.md.* ─+$/.test(line));
  assert.ok(divider > 0, 'a divider line introduces the skill');
  assert.ok(divider < 24, `the summary and the divider take ${divider + 1} lines`);
  for (const line of lines.slice(0, divider + 1)) assert.ok([...line].length <= 100, `too wide: ${line}`);
  const screen = lines.slice(0, divider).join('\n');
  assert.match(screen, /^Workflows:$/m);
  for (const name of [...commandNames, 'test', ...groups])
    assert.match(screen, new RegExp(`^  ${name} +\\S`, 'm'));
  assert.match(screen, /^ {2}mcp +.*\(list, login, logout\)$/m, 'a group names its actions');
  assert.ok(lines[divider + 1]!.includes(skillPath), 'the skill path follows the divider');
});

test('root help --json is the envelope with the sections, every command and the skill as data', async () => {
  const result = await project.cli(['--help', '--json']);
  assert.equal(result.exitCode, 0);
  assert.equal(result.json.ok, true);
  const data = result.json.data;
  assert.deepEqual(
    data.sections.map((s: {title: string}) => s.title),
    ['Workflows', 'More (stratos <group> <action>)'],
  );
  const names = data.commands.map((c: {name: string}) => c.name);
  for (const name of [...commandNames, 'mcp list', 'skill install']) assert.ok(names.includes(name), name);
  assert.ok(!names.includes('__complete'), 'the hidden completion callback is not listed');
  assert.equal(data.skill.path, skillPath);
  assert.equal(data.skill.text, readFileSync(skillPath, 'utf8'));
});

test('each group has help listing its actions with their summaries; the group alone prints it and exits 0', async () => {
  const root = (await project.cli(['--help', '--json'])).json.data;
  for (const group of groups) {
    const forms = await Promise.all([
      project.cli([group]),
      project.cli([group, '--help']),
      project.cli(['help', group]),
    ]);
    for (const form of forms) {
      assert.equal(form.exitCode, 0, `${group}: ${form.stderr}`);
      assert.equal(form.stderr, '');
      assert.equal(form.stdout, forms[0]!.stdout);
    }
    assert.match(forms[0]!.stdout, new RegExp(`^Usage: stratos ${group} <action> \\[options\\]$`, 'm'));
    const actions = root.commands.filter((c: {name: string}) => c.name.startsWith(`${group} `));
    assert.ok(actions.length > 0);
    for (const action of actions as {name: string; summary: string}[]) {
      const word = action.name.split(' ')[1]!;
      assert.ok(forms[0]!.stdout.includes(`  ${word}`), `${group} help lists ${word}`);
      assert.ok(forms[0]!.stdout.includes(action.summary), `${group} help has the summary of ${word}`);
    }
    const json = await project.cli([group, '--json']);
    assert.equal(json.exitCode, 0);
    assert.equal(json.json.data.group, group);
    assert.deepEqual(
      json.json.data.commands.map((c: {name: string}) => c.name),
      actions.map((c: {name: string}) => c.name),
    );
  }
});

test('every command help has an example and a usage derived from its options; --help --json is its data', async () => {
  const root = (await project.cli(['--help', '--json'])).json.data;
  for (const command of root.commands as {name: string; usage: string}[]) {
    const args = command.name.split(' ');
    const [text, json] = await Promise.all([
      project.cli([...args, '--help']),
      project.cli([...args, '--help', '--json']),
    ]);
    assert.equal(text.exitCode, 0, command.name);
    assert.match(text.stdout, /^Example:\n {2}stratos /m, `${command.name} help has an example`);
    assert.equal(json.exitCode, 0, command.name);
    const data = json.json.data;
    assert.equal(data.name, command.name);
    assert.equal(data.usage, command.usage);
    assert.ok(text.stdout.includes(`Usage: ${data.usage}\n`));
    assert.equal(data.examples.length, 1);
    assert.ok(data.examples[0].startsWith(`stratos ${command.name}`), data.examples[0]);
    // The usage is derived from the options: each one shows up in it, except --name (the target's other spelling).
    for (const option of data.options as {name: string; flag: string}[]) {
      if (option.name === 'help' || (option.name === 'name' && data.positionals.length > 0)) continue;
      assert.ok(
        data.usage.includes(option.flag.split(' ')[0]),
        `${command.name}: ${option.flag} in ${data.usage}`,
      );
    }
  }
});

test('an unknown option is our own usage error, said once, with the closest option', async () => {
  const result = await project.cli(['run', 'greet', '--inptu', '{}']);
  assert.equal(result.exitCode, 1);
  assert.equal(result.stdout, '');
  assert.equal(
    result.stderr,
    "error STRATOS_CLI_USAGE: Unknown option '--inptu' for 'stratos run'. Did you mean '--input'? " +
      'Usage: stratos run <workflow> [--input <json> | --input-file <path>] [--verbose] [--budget-usd <usd>] [--budget-tokens <count>] [--queue [<name>]] [--wait] [--json]\n',
  );
  const json = await project.cli(['run', 'greet', '--inptu', '{}', '--json']);
  assert.equal(json.json.error.code, 'STRATOS_CLI_USAGE');
  assert.deepEqual(json.json.error.details.suggestions, ['--input']);
  assert.equal(json.json.error.details.causes, undefined, 'no cause repeats the message');
  for (const args of [
    ['build', '--force=yes'],
    ['run', 'greet', '--input'],
    ['run', 'greet', '--input', '--name'],
  ]) {
    const bad = await project.cli(args);
    assert.equal(bad.exitCode, 1, args.join(' '));
    assert.match(
      bad.stderr,
      /^error STRATOS_CLI_USAGE: --(force|input) (takes no value|needs a value)/,
      bad.stderr,
    );
    assert.doesNotMatch(bad.stderr, /Caused by|To specify/);
  }
});

test('did you mean: a mistyped command, group action, root option or workflow name suggests the close one', async () => {
  const cases: [string[], RegExp, string][] = [
    [['rum', 'greet'], /^error STRATOS_CLI_USAGE: Unknown command 'rum'\. Did you mean 'run'\?/, 'run'],
    [
      ['mcp', 'lst'],
      /^error STRATOS_CLI_USAGE: Unknown command 'mcp lst'\. Did you mean 'mcp list'\?/,
      'mcp list',
    ],
    [
      ['--verison'],
      /^error STRATOS_CLI_USAGE: Unknown option '--verison'\. Did you mean '--version'\?/,
      '--version',
    ],
    [
      ['run', 'gret'],
      /^error STRATOS_WORKFLOW_NOT_FOUND: Workflow 'gret' was not found in .*\. Did you mean 'greet'\?/,
      'greet',
    ],
  ];
  for (const [args, message, suggestion] of cases) {
    const result = await project.cli(args);
    assert.equal(result.exitCode, 1, args.join(' '));
    assert.match(result.stderr, message);
    const json = await project.cli([...args, '--json']);
    assert.deepEqual(json.json.error.details.suggestions, [suggestion], args.join(' '));
  }
});
