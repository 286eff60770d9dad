// The build key's inputs and the reuse rule on real files: content hashes are the proof, a matching stat (size,
// inode, mtime) skips the read unless the stamp is racy, and the toolchain and direct MCP configuration count.
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {
  buildKeyOf,
  checkOwnInputs,
  collectBuildInputs,
  hashMcpConfigs,
} from '../../../src/builder/build-inputs.ts';
import type {BuildRecord} from '../../../src/builder/build-record.ts';
import {stampFiles, stampsMatch} from '../../../src/builder/file-stamps.ts';
import type {WorkflowPaths} from '../../../src/builder/workflow-paths.ts';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';

const base = mkdtempSync(join(tmpdir(), 'stratos-build-inputs-'));
after(() => rmSync(base, {recursive: true, force: true}));

function fileWith(name: string, content: string, ageMs = 60_000): string {
  const file = join(base, name);
  writeFileSync(file, content);
  const time = new Date(Date.now() - ageMs);
  utimesSync(file, time, time);
  return file;
}

test('a same-size edit behind an unchanged stat is trusted only outside the racy window', () => {
  const old = fileWith('old.ts', 'aaaa');
  const stamps = stampFiles([old]);
  assert.equal(stampsMatch(stamps, Date.now()), true);
  // Same size, same mtime put back: an old stamp is trusted without reading (git's index shortcut).
  const mtime = new Date(stamps[0]!.mtimeMs);
  writeFileSync(old, 'bbbb');
  utimesSync(old, mtime, mtime);
  assert.equal(
    stampsMatch(stamps, Date.now()),
    true,
    'trusted: stat unchanged and far from the hashing time',
  );
  // The same edit within the racy window of the hashing time is read again and found.
  assert.equal(stampsMatch(stamps, stamps[0]!.mtimeMs + 500), false, 'racy: rehashed');
});

test('a touched file with unchanged content still matches; changed content or a new file does not', () => {
  const file = fileWith('touched.ts', 'export const x = 1;\n');
  const missing = join(base, 'later.ts');
  const stamps = stampFiles([file, missing]);
  const later = new Date(Date.now() + 5_000);
  utimesSync(file, later, later);
  assert.equal(stampsMatch(stamps, Date.now()), true);
  writeFileSync(file, 'export const x = 2;\n');
  assert.equal(stampsMatch(stamps, Date.now()), false);
  const again = stampFiles([file, missing]);
  assert.equal(stampsMatch(again, Date.now()), true);
  writeFileSync(missing, '');
  assert.equal(stampsMatch(again, Date.now()), false, 'a file that appears is a change');
});

test('a file modified during the build is recorded unknown and makes the next check stale', () => {
  const file = fileWith('racing.ts', 'x', 0);
  const stamps = stampFiles([file], Date.now() - 60_000);
  assert.equal(stamps[0]!.hash, 'modified-during-build');
  assert.equal(stampsMatch(stamps, Date.now()), false);
});

test('the reuse rule: toolchain, direct MCP configuration and files; the key changes with each', async () => {
  const directory = join(base, 'wf');
  mkdirSync(join(directory, 'dist'), {recursive: true});
  const entrypoint = join(directory, 'dist', 'wf', 'workflow.js');
  mkdirSync(join(directory, 'dist', 'wf'));
  writeFileSync(entrypoint, 'export {};\n');
  const source = fileWith('wf/workflow.ts', 'export {};\n');
  const paths = {directory, compiledEntrypoint: entrypoint} as WorkflowPaths;
  const manifest = (args: string[]) =>
    ({mcp: {servers: {gh: {type: 'stdio', command: 'node', args}}}}) as unknown as WorkflowManifest;
  const inputs = await collectBuildInputs({
    paths,
    manifest: manifest(['a']),
    files: [source],
    directServers: ['gh'],
    children: [],
    startedAt: Date.now(),
  });
  const record = {compiledEntrypoint: entrypoint, inputs} as BuildRecord;
  assert.equal(await checkOwnInputs(paths, manifest(['a']), record), 'fresh');
  assert.equal(await checkOwnInputs(paths, manifest(['b']), record), 'stale', 'direct server configuration');
  const oldCompiler = {...record, inputs: {...inputs, toolchain: 'another compiler or SDK'}};
  assert.equal(await checkOwnInputs(paths, manifest(['a']), oldCompiler), 'stale', 'toolchain');
  assert.equal(
    await checkOwnInputs(paths, manifest(['a']), {...record, compiledEntrypoint: '/x.js'}),
    'absent',
  );
  const key = buildKeyOf(inputs, entrypoint);
  assert.notEqual(buildKeyOf({...inputs, toolchain: 'other'}, entrypoint), key);
  assert.notEqual(buildKeyOf({...inputs, mcp: hashMcpConfigs(manifest(['b']), ['gh'])}, entrypoint), key);
  assert.notEqual(buildKeyOf(inputs, join(directory, 'dist', 'wf', 'main.js')), key);
  writeFileSync(source, 'export const changed = 1;\n');
  assert.equal(await checkOwnInputs(paths, manifest(['a']), record), 'stale', 'a source file');
});
