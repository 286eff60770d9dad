import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {readManifest} from '../../../src/manifest/index.ts';
import {baseManifest} from './fixtures.ts';

const root = await mkdtemp(join(tmpdir(), 'stratos-manifest-'));
after(() => rm(root, {recursive: true, force: true}));

async function workflowDir(name: string, contents?: string | Uint8Array): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, {recursive: true});
  if (contents !== undefined) await writeFile(join(dir, 'workflow.yaml'), contents);
  return dir;
}

test('readManifest reads and validates <dir>/workflow.yaml', async () => {
  const dir = await workflowDir('valid', baseManifest);
  const result = await readManifest(dir);
  assert.deepEqual(result.diagnostics, []);
  assert.equal(result.manifest?.name, 'pr-review');
  assert.deepEqual(result.locate(['version']), {file: join(dir, 'workflow.yaml'), line: 4, column: 10});
});

test('diagnostics of a read manifest carry the file path', async () => {
  const dir = await workflowDir('invalid', `${baseManifest}extra: 1\n`);
  const result = await readManifest(dir);
  assert.deepEqual(result.diagnostics[0]?.location, {file: join(dir, 'workflow.yaml'), line: 5, column: 1});
});

test('a missing workflow.yaml is STRATOS_MANIFEST_UNREADABLE, not a throw', async () => {
  const dir = await workflowDir('missing');
  const result = await readManifest(dir);
  assert.equal(result.manifest, undefined);
  assert.equal(result.diagnostics.length, 1);
  const diagnostic = result.diagnostics[0];
  assert.equal(diagnostic?.code, 'STRATOS_MANIFEST_UNREADABLE');
  assert.equal(diagnostic?.severity, 'error');
  assert.deepEqual(diagnostic?.location, {file: join(dir, 'workflow.yaml'), line: 1, column: 1});
  assert.match(
    diagnostic?.message ?? '',
    /^workflow\.yaml could not be read: there is no workflow\.yaml in /,
  );
  assert.deepEqual(result.locate(['name']), {file: join(dir, 'workflow.yaml'), line: 1, column: 1});
});

test('a workflow.yaml that is a directory is unreadable', async () => {
  const dir = await workflowDir('is-dir');
  await mkdir(join(dir, 'workflow.yaml'));
  const result = await readManifest(dir);
  assert.equal(result.diagnostics[0]?.code, 'STRATOS_MANIFEST_UNREADABLE');
  assert.match(result.diagnostics[0]?.message ?? '', /is a directory/);
});

test('a workflow.yaml that is not UTF-8 is unreadable rather than silently altered', async () => {
  const dir = await workflowDir('latin1', new Uint8Array([...Buffer.from('name: caf'), 0xe9, 0x0a]));
  const result = await readManifest(dir);
  assert.equal(result.diagnostics[0]?.code, 'STRATOS_MANIFEST_UNREADABLE');
  assert.match(result.diagnostics[0]?.message ?? '', /not valid UTF-8/);
});

test('a UTF-8 byte order mark is accepted', async () => {
  const dir = await workflowDir('bom', `\uFEFF${baseManifest}`);
  const result = await readManifest(dir);
  assert.deepEqual(result.diagnostics, []);
  assert.equal(result.manifest?.name, 'pr-review');
});
