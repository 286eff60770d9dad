import assert from 'node:assert/strict';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {test} from 'node:test';
import {sha256Hex} from '../../../src/internal/hash.ts';
import {
  ensureWorkspaceFolder,
  formatRunTime,
  runFolderName,
} from '../../../src/telemetry/artifacts/run-folders.ts';

test('run folder names: portable UTC time and execution id', () => {
  const date = new Date('2026-12-01T07:31:26.123Z');
  assert.equal(formatRunTime(date), '20261201T073126123Z');
  assert.equal(runFolderName(date, '0123456789abcdef'), '20261201T073126123Z-0123456789abcdef');
});

test('workspace folder: base name and 8 hex of the path hash, longer hash on a collision', async () => {
  const home = await mkdtemp(join(tmpdir(), 'stratos-ws-'));
  try {
    const path = '/work/my project';
    const folder = await ensureWorkspaceFolder(home, path);
    assert.equal(basename(folder), `my_project-${sha256Hex(path).slice(0, 8)}`);
    assert.equal(JSON.parse(await readFile(join(folder, 'workspace.json'), 'utf8')).path, path);
    assert.equal(await ensureWorkspaceFolder(home, path), folder, 'found again by its stored path');

    // Another path whose 8-hex name is already taken (simulated) gets the 16-hex name.
    const other = '/elsewhere/proj';
    const taken = join(home, 'runs', `proj-${sha256Hex(other).slice(0, 8)}`);
    await mkdir(taken, {recursive: true});
    await writeFile(join(taken, 'workspace.json'), JSON.stringify({path: '/not/this/one'}));
    assert.equal(basename(await ensureWorkspaceFolder(home, other)), `proj-${sha256Hex(other).slice(0, 16)}`);

    const long = `/x/${'n'.repeat(80)}`;
    assert.equal(
      basename(await ensureWorkspaceFolder(home, long)),
      `${'n'.repeat(48)}-${sha256Hex(long).slice(0, 16)}`,
    );
  } finally {
    await rm(home, {recursive: true, force: true});
  }
});
