// `stratos new` through the real CLI: every template builds and its saved case passes at once, offline (the MCP
// template's server ships in the template, the agent and decision cases script their answers, Ollama is a closed
// port); an existing folder is never overwritten; the name follows the manifest's rule.
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {findClosedPort} from '../../helpers/closed-port.ts';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const templates = readdirSync(join(repo, 'templates')).sort();
let project: TempProject;
let env: NodeJS.ProcessEnv;

before(async () => {
  project = await createTempProject('stratos-new-');
  env = {OLLAMA_HOST: `http://127.0.0.1:${await findClosedPort()}`};
});

after(() => project.remove());

test('the templates are the four documented ones, shipped in the package and offered by --template', async () => {
  assert.deepEqual(templates, ['agent', 'basic', 'decision', 'mcp']);
  const files = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {files: string[]}).files;
  assert.ok(files.includes('templates/'), 'package.json ships templates/');
  const help = await project.cli(['new', '--help', '--json']);
  const option = help.json.data.options.find((o: {name: string}) => o.name === 'template');
  assert.deepEqual([...option.choices].sort(), templates);
});

for (const template of ['basic', 'mcp', 'agent', 'decision']) {
  test(`stratos new --template ${template}: builds, and its saved case passes at once`, async () => {
    const name = `from-${template}`;
    const created = await project.cli(['new', name, '--template', template, '--json'], {env});
    assert.equal(created.exitCode, 0, created.stdout + created.stderr);
    const directory = join(project.projectRoot, name);
    assert.equal(created.json.data.directory, directory);
    assert.equal(created.json.data.template, template);
    assert.ok(created.json.data.files.includes('workflow.yaml'));
    assert.ok(created.json.data.files.some((file: string) => /^tests\/[^/]+\.yaml$/.test(file)));
    assert.match(readFileSync(join(directory, 'workflow.yaml'), 'utf8'), new RegExp(`^name: ${name}$`, 'm'));

    const build = await project.cli(['build', name, '--json'], {env});
    assert.equal(build.exitCode, 0, build.stdout + build.stderr);
    assert.equal(build.json.data.workflows[0].status, 'built');
    const tested = await project.cli(['test', name, '--json'], {env});
    assert.equal(tested.exitCode, 0, tested.stdout + tested.stderr);
    assert.equal(tested.json.data.summary.passed, 1, JSON.stringify(tested.json.data));
    assert.equal(tested.json.data.summary.failed + tested.json.data.summary.errored, 0);
  });
}

test('readable output names the folder, its files and the next commands', async () => {
  const result = await project.cli(['new', 'readable']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /^Created \.stratos\/workflows\/readable\/ from the basic template:$/m);
  assert.match(result.stdout, /^ {2}stratos build readable$/m);
  assert.match(result.stdout, /^ {2}stratos test readable$/m);
});

test('an existing folder is refused and left as it is', async () => {
  await project.writeWorkflow('taken', {'notes.txt': 'mine'});
  const result = await project.cli(['new', 'taken', '--json']);
  assert.equal(result.exitCode, 1);
  assert.equal(result.json.error.code, 'STRATOS_NEW_FOLDER_EXISTS');
  assert.deepEqual(readdirSync(join(project.projectRoot, 'taken')), ['notes.txt']);
});

test('a name the manifest would refuse, an unknown template and a missing name are errors that write nothing', async () => {
  const before = readdirSync(project.projectRoot).sort();
  const cases: [string[], string][] = [
    [['new', 'Bad_Name'], 'STRATOS_MANIFEST_NAME_INVALID'],
    [['new', 'ok-name', '--template', 'nope'], 'STRATOS_NEW_TEMPLATE_UNKNOWN'],
    [['new'], 'STRATOS_CLI_USAGE'],
  ];
  for (const [args, code] of cases) {
    const result = await project.cli([...args, '--json']);
    assert.equal(result.exitCode, 1, args.join(' '));
    assert.equal(result.json.error.code, code, args.join(' '));
  }
  assert.match((await project.cli(['new', 'Bad_Name'])).stderr, /lowercase kebab-case.*such as 'bad-name'/);
  assert.deepEqual(readdirSync(project.projectRoot).sort(), before);
});

test('stratos new makes .stratos/workflows/ when the folder has none', async () => {
  const fresh = await createTempProject('stratos-new-fresh-');
  try {
    const cwd = join(fresh.cwd, 'elsewhere');
    await writeFile(join(fresh.cwd, 'placeholder'), '');
    const {mkdir} = await import('node:fs/promises');
    await mkdir(cwd);
    const result = await fresh.cli(['new', 'first'], {cwd});
    assert.equal(result.exitCode, 0, result.stderr);
    const listed = await fresh.cli(['list', '--json'], {cwd});
    assert.deepEqual(
      listed.json.data.workflows.map((w: {name: string}) => w.name),
      ['first'],
    );
  } finally {
    await fresh.remove();
  }
});
