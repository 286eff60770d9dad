import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rename, rm, utimes, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, test} from 'node:test';
import {computeBuildKey, listAuthoredFiles} from '../../../src/builder/freshness.ts';

let directory: string;
const key = () => computeBuildKey({directory});

async function write(path: string, content: string): Promise<void> {
  await mkdir(join(directory, path, '..'), {recursive: true});
  await writeFile(join(directory, path), content);
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'stratos-build-key-'));
  await write('workflow.yaml', 'name: keyed\n');
  await write('workflow.ts', 'export {};\n');
  await write('lib/helper.ts', 'export const a = 1;\n');
});

afterEach(() => rm(directory, {recursive: true, force: true}));

test('the key is a SHA-256 hex digest and is stable for unchanged files', async () => {
  const first = await key();
  assert.match(first, /^[0-9a-f]{64}$/);
  assert.equal(await key(), first);
});

test('changing file content changes the key; restoring it restores the key', async () => {
  const original = await key();
  await write('lib/helper.ts', 'export const a = 2;\n');
  const changed = await key();
  assert.notEqual(changed, original);
  await write('lib/helper.ts', 'export const a = 1;\n');
  assert.equal(await key(), original);
});

test('moving a file to another path with the same bytes changes the key', async () => {
  const original = await key();
  await mkdir(join(directory, 'src'));
  await rename(join(directory, 'lib', 'helper.ts'), join(directory, 'src', 'helper.ts'));
  assert.notEqual(await key(), original);
});

test('adding or removing an authored file changes the key', async () => {
  const original = await key();
  await write('prompts/review.md', 'Review carefully.\n');
  assert.notEqual(await key(), original);
  await rm(join(directory, 'prompts'), {recursive: true});
  assert.equal(await key(), original);
});

test('a new modification time alone does not change the key', async () => {
  const original = await key();
  const later = new Date(Date.now() + 3_600_000);
  for (const file of ['workflow.yaml', 'workflow.ts', 'lib/helper.ts'])
    await utimes(join(directory, file), later, later);
  assert.equal(await key(), original);
});

test('dist/, node_modules/ and .git/ are not inputs; generated/ is', async () => {
  const original = await key();
  await write('dist/keyed/workflow.js', 'compiled\n');
  await write('node_modules/dep/index.js', 'installed\n');
  await write('lib/node_modules/nested/index.js', 'installed\n');
  await write('.git/HEAD', 'ref\n');
  assert.equal(await key(), original);
  await write('generated/mcp/github.ts', '// wrapper\n');
  assert.notEqual(await key(), original, 'MCP wrappers are compiled with the workflow');
});

test('extra inputs (generated wrappers) are part of the key', async () => {
  const plain = await key();
  const withExtra = await computeBuildKey({directory, extra: {'github.ts': 'abc'}});
  assert.notEqual(withExtra, plain);
  assert.notEqual(await computeBuildKey({directory, extra: {'github.ts': 'abd'}}), withExtra);
});

test('listAuthoredFiles lists sorted absolute paths of the authored files', async () => {
  await write('dist/x.js', '');
  assert.deepEqual(await listAuthoredFiles(directory), [
    join(directory, 'lib', 'helper.ts'),
    join(directory, 'workflow.ts'),
    join(directory, 'workflow.yaml'),
  ]);
});
