import assert from 'node:assert/strict';
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {type DiscoveryResult, discoverWorkflows, resolveWorkflow} from '../../../src/discovery/index.ts';
import type {StratosError} from '../../../src/errors/index.ts';
import {manifest} from '../../helpers/temp-project.ts';

let base: string;
let cwd: string;
let projectRoot: string;
let userRoot: string;
let discovery: DiscoveryResult;

async function writeManifest(folder: string, name: string, text = manifest(name)): Promise<void> {
  await mkdir(folder, {recursive: true});
  await writeFile(join(folder, 'workflow.yaml'), text);
}

/** Runs `resolve` and returns the StratosError it rejects with. */
async function rejection(resolve: () => Promise<unknown>): Promise<StratosError> {
  try {
    await resolve();
  } catch (error) {
    return error as StratosError;
  }
  assert.fail('expected the target to be rejected');
}

before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'stratos-resolve-')));
  cwd = join(base, 'work');
  projectRoot = join(cwd, '.stratos', 'workflows');
  userRoot = join(base, 'home', 'workflows');
  await writeManifest(join(projectRoot, 'solo'), 'solo');
  await writeManifest(join(projectRoot, 'twin'), 'twin');
  await writeManifest(join(userRoot, 'twin'), 'twin');
  await writeManifest(join(projectRoot, 'dup-a'), 'dup');
  await writeManifest(join(projectRoot, 'dup-b'), 'dup');
  await writeManifest(join(userRoot, 'dup'), 'dup');
  await writeManifest(join(projectRoot, 'broken'), 'broken', 'name: [broken\n');
  await writeManifest(join(projectRoot, '.hidden'), 'hidden');
  await writeManifest(join(base, 'outside', 'loose'), 'loose');
  await mkdir(join(base, 'outside', 'empty'), {recursive: true});
  discovery = await discoverWorkflows({cwd, home: join(base, 'home')});
});

after(() => rm(base, {recursive: true, force: true}));

test('a unique name resolves to its handle', async () => {
  const handle = await resolveWorkflow('solo', discovery, cwd);
  assert.equal(handle.directory, join(projectRoot, 'solo'));
  assert.equal(handle.root.kind, 'project');
});

test('an unknown name is STRATOS_WORKFLOW_NOT_FOUND naming both roots', async () => {
  const error = await rejection(() => resolveWorkflow('missing', discovery, cwd));
  assert.equal(error.code, 'STRATOS_WORKFLOW_NOT_FOUND');
  assert.equal(
    error.message,
    `Workflow 'missing' was not found in ${projectRoot} or ${userRoot}. Run 'stratos list' to see the discovered workflows.`,
  );
  assert.deepEqual(error.details, {target: 'missing', roots: [projectRoot, userRoot], suggestions: []});
});

test('a mistyped name suggests the discovered names within a few edits', async () => {
  const error = await rejection(() => resolveWorkflow('twni', discovery, cwd));
  assert.equal(error.code, 'STRATOS_WORKFLOW_NOT_FOUND');
  assert.match(
    error.message,
    /^Workflow 'twni' was not found in .*\. Did you mean 'twin'\? Run 'stratos list'/,
  );
  assert.deepEqual(error.details?.suggestions, ['twin']);
});

test('a name in both roots is STRATOS_WORKFLOW_AMBIGUOUS with both paths, project first', async () => {
  const error = await rejection(() => resolveWorkflow('twin', discovery, cwd));
  assert.equal(error.code, 'STRATOS_WORKFLOW_AMBIGUOUS');
  assert.deepEqual(error.details?.paths, [join(projectRoot, 'twin'), join(userRoot, 'twin')]);
  assert.match(error.message, /Pass the folder path of the one you mean as the target/);
});

test('two folders of one name in one root is a duplicate error even when the other root has it too', async () => {
  const error = await rejection(() => resolveWorkflow('dup', discovery, cwd));
  assert.equal(error.code, 'STRATOS_WORKFLOW_DUPLICATE_NAME');
  assert.deepEqual(error.details?.paths, [
    join(projectRoot, 'dup-a'),
    join(projectRoot, 'dup-b'),
    join(userRoot, 'dup'),
  ]);
});

test('an invalid manifest is still found by its folder name, diagnostics attached', async () => {
  const handle = await resolveWorkflow('broken', discovery, cwd);
  assert.equal(handle.manifest, undefined);
  assert.equal(handle.diagnostics[0]?.code, 'STRATOS_MANIFEST_YAML_INVALID');
});

test('folder paths: absolute, relative to cwd and with a trailing slash give the discovered handle', async () => {
  const known = discovery.workflows.find((w) => w.directory === join(userRoot, 'twin'));
  for (const target of [join(userRoot, 'twin'), '../home/workflows/twin', '../home/workflows/twin/']) {
    assert.equal(await resolveWorkflow(target, discovery, cwd), known, target);
  }
  const project = await resolveWorkflow('./.stratos/workflows/twin', discovery, cwd);
  assert.equal(project.directory, join(projectRoot, 'twin'));
});

test('a folder path resolves where discovery skips by name: a dot folder inside a root keeps its root', async () => {
  const handle = await resolveWorkflow('.stratos/workflows/.hidden', discovery, cwd);
  assert.equal(handle.name, 'hidden');
  assert.deepEqual(handle.root, {kind: 'project', directory: projectRoot});
});

test('a workflow folder outside both roots is accepted by path, with its parent as a path root', async () => {
  const handle = await resolveWorkflow('../outside/loose', discovery, cwd);
  assert.equal(handle.name, 'loose');
  assert.deepEqual(handle.root, {kind: 'path', directory: join(base, 'outside')});
});

test('a path without a workflow.yaml, or to nothing, is STRATOS_WORKFLOW_NOT_FOUND with the path', async () => {
  for (const target of ['../outside/empty', '../outside/nothing-here', './solo']) {
    const error = await rejection(() => resolveWorkflow(target, discovery, cwd));
    assert.equal(error.code, 'STRATOS_WORKFLOW_NOT_FOUND', target);
    assert.equal(error.details?.path, join(cwd, target));
    assert.match(error.message, /it needs a workflow\.yaml/);
  }
});
