// stratos clean after a real build: removes what Stratos owns (dist/, generated/, the child wrapper) and keeps the
// authored files, installed dependencies and credentials byte for byte.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {changedFiles, type FileSnapshot, snapshotAuthoredFiles} from '../helpers/authored-files.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../helpers/temp-project.ts';

let project: TempProject;
let alpha: string;
let beta: string;
let authored: FileSnapshot;
const dependencyFile = () => join(alpha, 'node_modules', 'some-dep', 'index.js');
const credentials = () => join(project.home, 'credentials.json');

before(async () => {
  project = await createTempProject('stratos-clean-');
  alpha = await project.writeWorkflow('alpha', {
    'workflow.yaml': manifest('alpha'),
    'workflow.ts': echoWorkflow,
    'package.json': '{\n  "type": "module"\n}\n',
    'lib/notes.ts': 'export const note = 1;\n',
    // An installed dependency, written here as npm would leave it.
    'node_modules/some-dep/package.json': '{"name": "some-dep", "version": "1.0.0"}',
    'node_modules/some-dep/index.js': 'export {};\n',
  });
  beta = await project.writeWorkflow('beta', {
    'workflow.yaml': manifest('beta'),
    'workflow.ts': echoWorkflow,
  });
  await writeFile(credentials(), '{"version": 1, "servers": {}}\n', {mode: 0o600});
  const built = await project.cli(['build', '--json']);
  assert.equal(built.exitCode, 0, built.stdout);
  // What MCP preparation and child-workflow wrappers would generate.
  await mkdir(join(alpha, 'generated', 'mcp'), {recursive: true});
  await writeFile(join(alpha, 'generated', 'mcp', 'github.ts'), '// generated\n');
  await mkdir(join(project.projectRoot, '.generated'), {recursive: true});
  await writeFile(join(project.projectRoot, '.generated', 'alpha.ts'), '// generated\n');
  authored = await snapshotAuthoredFiles(project.cwd, project.userRoot, credentials());
  assert.ok(authored.has(join(alpha, 'workflow.ts')) && authored.has(credentials()));
});

after(() => project.remove());

test('clean <target> removes only that workflow artifacts', async () => {
  const result = await project.cli(['clean', 'beta', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.deepEqual(result.json.data.workflows, [{name: 'beta', removed: [join(beta, 'dist')]}]);
  assert.ok(!existsSync(join(beta, 'dist')));
  assert.ok(existsSync(join(alpha, 'dist', '.stratos-build.json')), 'alpha untouched');
});

test('clean removes dist/, generated/ and the child wrapper, and reports each path', async () => {
  const result = await project.cli(['clean']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(
    result.stdout,
    /^alpha: removed .*alpha\/dist, .*alpha\/generated, .*\.generated\/alpha\.ts$/m,
  );
  assert.match(result.stdout, /^beta: nothing to remove$/m);
  for (const path of [
    join(alpha, 'dist'),
    join(alpha, 'generated'),
    join(project.projectRoot, '.generated', 'alpha.ts'),
  ]) {
    assert.ok(!existsSync(path), `${path} removed`);
  }
});

test('authored files, dependencies and credentials keep their exact bytes', async () => {
  assert.deepEqual(
    changedFiles(authored, await snapshotAuthoredFiles(project.cwd, project.userRoot, credentials())),
    [],
  );
  for (const path of ['workflow.ts', 'workflow.yaml', 'package.json', 'lib/notes.ts']) {
    assert.ok(existsSync(join(alpha, path)), `${path} kept`);
  }
  assert.ok(existsSync(dependencyFile()), 'node_modules kept');
  assert.ok(existsSync(credentials()), 'credentials kept');
  assert.ok(existsSync(join(project.projectRoot, '.gitignore')), 'ignore rules kept');
});

test('after clean the workflows are absent, and run builds them again', async () => {
  const listed = await project.cli(['list', '--json']);
  assert.deepEqual(
    listed.json.data.workflows.map((w: {build: string}) => w.build),
    ['absent', 'absent'],
  );
  const result = await project.cli(['run', 'alpha', '--input', '{"text":"back"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.deepEqual(result.json.data.output, {echo: 'BACK'});
});

test('clean of a clean project removes nothing and still succeeds', async () => {
  await project.cli(['clean']);
  const result = await project.cli(['clean', '--json']);
  assert.equal(result.exitCode, 0);
  assert.equal(result.json.message, 'Removed 0 generated paths');
});
