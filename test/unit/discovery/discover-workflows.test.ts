import assert from 'node:assert/strict';
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {discoverWorkflows, discoveryRoots} from '../../../src/discovery/index.ts';
import {manifest} from '../../helpers/temp-project.ts';

let base: string;
let cwd: string;
let home: string;

async function write(path: string, content: string): Promise<void> {
  await mkdir(join(path, '..'), {recursive: true});
  await writeFile(path, content);
}

before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'stratos-discover-')));
  cwd = join(base, 'work');
  home = join(base, 'home');
  const project = join(cwd, '.stratos', 'workflows');
  await write(join(project, 'alpha', 'workflow.yaml'), manifest('alpha'));
  await write(join(project, 'renamed-folder', 'workflow.yaml'), manifest('beta'));
  await write(join(project, 'broken', 'workflow.yaml'), 'name: [broken\n');
  await write(join(project, 'no-manifest', 'workflow.ts'), 'export {};\n');
  await write(join(project, '.hidden', 'workflow.yaml'), manifest('hidden'));
  await write(join(project, 'node_modules', 'workflow.yaml'), manifest('node-modules'));
  await write(join(project, 'loose-file.yaml'), manifest('loose'));
  await write(join(project, 'copy-a', 'workflow.yaml'), manifest('copy'));
  await write(join(project, 'copy-b', 'workflow.yaml'), manifest('copy'));
  await write(join(home, 'workflows', 'alpha', 'workflow.yaml'), manifest('alpha'));
});

after(() => rm(base, {recursive: true, force: true}));

test('the project root comes first, then the user root (STRATOS_HOME/workflows)', () => {
  assert.deepEqual(discoveryRoots({cwd, home}), [
    {kind: 'project', directory: join(cwd, '.stratos', 'workflows')},
    {kind: 'user', directory: join(home, 'workflows')},
  ]);
});

test('invoked from the folder that holds the Stratos home, the one root is not listed twice', () => {
  assert.deepEqual(discoveryRoots({cwd: base, home: join(base, '.stratos')}), [
    {kind: 'user', directory: join(base, '.stratos', 'workflows')},
  ]);
});

test('folders with a workflow.yaml are workflows; dot folders, node_modules and loose files are not', async () => {
  const {workflows} = await discoverWorkflows({cwd, home});
  assert.deepEqual(
    workflows.map((w) => [w.name, w.root.kind]),
    [
      ['alpha', 'project'],
      ['broken', 'project'],
      ['copy', 'project'],
      ['copy', 'project'],
      ['beta', 'project'],
      ['alpha', 'user'],
    ],
  );
});

test('the manifest name wins over the folder name; an invalid manifest keeps the folder name and its diagnostics', async () => {
  const {workflows} = await discoverWorkflows({cwd, home});
  const beta = workflows.find((w) => w.name === 'beta');
  assert.equal(beta?.directory, join(cwd, '.stratos', 'workflows', 'renamed-folder'));
  const broken = workflows.find((w) => w.name === 'broken');
  assert.equal(broken?.manifest, undefined);
  assert.equal(broken?.diagnostics[0]?.code, 'STRATOS_MANIFEST_YAML_INVALID');
  assert.equal(
    broken?.diagnostics[0]?.location?.file,
    join(cwd, '.stratos', 'workflows', 'broken', 'workflow.yaml'),
  );
});

test('a duplicate name inside one root is a problem; the same name in two roots is not', async () => {
  const {problems} = await discoverWorkflows({cwd, home});
  assert.deepEqual(
    problems.map((p) => [p.code, p.severity, p.location?.file]),
    [
      [
        'STRATOS_WORKFLOW_DUPLICATE_NAME',
        'error',
        join(cwd, '.stratos', 'workflows', 'copy-b', 'workflow.yaml'),
      ],
    ],
  );
  assert.match(problems[0]!.message, /copy-a and .*copy-b\. Names must be unique within a discovery root/);
});

test('missing roots are simply empty', async () => {
  const result = await discoverWorkflows({cwd: join(base, 'nowhere'), home: join(base, 'no-home')});
  assert.deepEqual(result.workflows, []);
  assert.deepEqual(result.problems, []);
});
