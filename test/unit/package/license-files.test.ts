// The package ships its licence and the attribution of the Models.dev-derived mapping: `npm pack` lists both, the
// licence matches package.json's `license`, and the notice names the revision the mapping was generated from.
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {test} from 'node:test';
import {promisify} from 'node:util';
import {modelCatalogRevision} from '../../../src/providers/models/model-identities.ts';

const repository = resolve(import.meta.dirname, '..', '..', '..');

test('npm pack lists LICENSE and THIRD-PARTY-NOTICES.md', async () => {
  const {stdout} = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repository,
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(stdout) as {files: {path: string}[]}[];
  const packed = report[0]!.files.map((file) => file.path);
  assert.ok(packed.includes('LICENSE'), 'the archive contains LICENSE');
  assert.ok(packed.includes('THIRD-PARTY-NOTICES.md'), 'the archive contains THIRD-PARTY-NOTICES.md');
});

test('LICENSE is the licence package.json names', () => {
  const pkg = JSON.parse(readFileSync(resolve(repository, 'package.json'), 'utf8')) as {license: string};
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(resolve(repository, 'LICENSE'), 'utf8'), /^MIT License\n/);
});

test('THIRD-PARTY-NOTICES.md attributes the Models.dev mapping at the revision it was generated from', () => {
  const notices = readFileSync(resolve(repository, 'THIRD-PARTY-NOTICES.md'), 'utf8');
  assert.ok(
    notices.includes('src/providers/models/model-identities.ts'),
    'the notice names the derived file',
  );
  assert.ok(notices.includes(modelCatalogRevision), `the notice names the revision ${modelCatalogRevision}`);
  assert.match(notices, /Licence: MIT/);
  assert.match(notices, /Copyright \(c\) 2025 models\.dev/);
});
