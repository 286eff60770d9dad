// Real tsc builds of a workflow with a helper module: no tsconfig.json needed, output mirrors the source paths below
// dist/, an unchanged build is reused untouched, an edit makes it stale and the next run rebuilds it.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readFile, rm, stat, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const mirrorWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import {decorate} from './lib/decorate.js';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to decorate')}),
  output: z.object({decorated: z.string().describe('The decorated text')}),
  run({text}) {
    return {decorated: decorate(text)};
  },
});
`;

const helper = (mark: string) => `export function decorate(text: string): string {
  return '${mark}' + text + '${mark}';
}
`;

let project: TempProject;
let directory: string;
let dist: string;

async function freshnessOf(name: string): Promise<string> {
  const listed = await project.cli(['list', '--json']);
  return listed.json.data.workflows.find((w: {name: string}) => w.name === name).build;
}

async function buildStatus(): Promise<string> {
  const result = await project.cli(['build', 'mirror', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  return result.json.data.workflows[0].status;
}

before(async () => {
  project = await createTempProject('stratos-build-output-');
  directory = await project.writeWorkflow('mirror', {
    'workflow.yaml': manifest('mirror'),
    'workflow.ts': mirrorWorkflow,
    'lib/decorate.ts': helper('*'),
  });
  dist = join(directory, 'dist');
  assert.equal(await buildStatus(), 'built');
});

after(() => project.remove());

test('no tsconfig.json is needed and none is written', () => {
  assert.ok(!existsSync(join(directory, 'tsconfig.json')));
  assert.ok(!existsSync(join(project.projectRoot, 'tsconfig.json')));
});

test('compiled output goes to the workflow dist/, mirroring the source paths', () => {
  for (const file of ['mirror/workflow.js', 'mirror/lib/decorate.js', 'mirror/workflow.js.map']) {
    assert.ok(existsSync(join(dist, file)), `dist/${file} exists`);
  }
  assert.ok(existsSync(join(dist, '.stratos-build.json')), 'the build record');
  assert.ok(!existsSync(join(directory, 'workflow.js')), 'nothing is emitted beside the sources');
  assert.ok(!existsSync(join(directory, 'lib', 'decorate.js')));
});

test('the compiled ES module runs and imports its helper', async () => {
  const result = await project.cli(['run', 'mirror', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.deepEqual(result.json.data.output, {decorated: '*hi*'});
  const compiled = await readFile(join(dist, 'mirror', 'workflow.js'), 'utf8');
  assert.match(compiled, /^import .* from ['"]\.\/lib\/decorate\.js['"];?$/m, 'ESM output');
});

test('an unchanged second build is reused and leaves dist untouched', async () => {
  const entry = join(dist, 'mirror', 'workflow.js');
  const record = join(dist, '.stratos-build.json');
  const before = [await stat(entry), await stat(record)].map((s) => s.mtimeMs);
  const recordText = await readFile(record, 'utf8');
  assert.equal(await freshnessOf('mirror'), 'fresh');
  assert.equal(await buildStatus(), 'reused');
  const human = await project.cli(['build', 'mirror']);
  assert.match(human.stdout, /^✓ reused mirror \(\d+ ms\)$/m);
  assert.deepEqual(
    [await stat(entry), await stat(record)].map((s) => s.mtimeMs),
    before,
  );
  assert.equal(await readFile(record, 'utf8'), recordText);
});

test('touching a file without changing it keeps the build fresh', async () => {
  const later = new Date(Date.now() + 60_000);
  await utimes(join(directory, 'lib', 'decorate.ts'), later, later);
  assert.equal(await freshnessOf('mirror'), 'fresh');
  assert.equal(await buildStatus(), 'reused');
});

test('editing a helper makes the build stale; run rebuilds and uses the new code', async () => {
  await writeFile(join(directory, 'lib', 'decorate.ts'), helper('#'));
  assert.equal(await freshnessOf('mirror'), 'stale');
  const result = await project.cli(['run', 'mirror', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.deepEqual(result.json.data.output, {decorated: '#hi#'});
  assert.equal(await freshnessOf('mirror'), 'fresh');
});

test('a file nobody imports leaves the build fresh; deleting the compiled module makes describe rebuild', async () => {
  await writeFile(join(directory, 'notes.md'), 'An authored note.\n');
  assert.equal(await freshnessOf('mirror'), 'fresh');
  await rm(join(dist, 'mirror', 'workflow.js'));
  assert.equal(await freshnessOf('mirror'), 'absent');
  const described = await project.cli(['describe', 'mirror', '--json']);
  assert.equal(described.exitCode, 0, described.stdout);
  assert.equal(await freshnessOf('mirror'), 'fresh');
});

test('--force rebuilds an up-to-date build', async () => {
  const result = await project.cli(['build', 'mirror', '--force', '--json']);
  assert.equal(result.json.data.workflows[0].status, 'built');
});
