// The packages Stratos depends on are found where Node's resolver finds them (the build key and the shared SDK's
// links use these folders), without asking that resolver on the cached paths.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {test} from 'node:test';
import {
  installedPackageDirectory,
  installedPackageVersion,
  packageDirectory,
  packageVersion,
} from '../../../src/internal/package-info.ts';

const require = createRequire(new URL('../../../src/internal/package-info.ts', import.meta.url));

test('each dependency is the folder require.resolve finds, symlinks resolved', () => {
  const compiler = `@typescript/typescript-${process.platform}-${process.arch}`;
  for (const name of ['zod', '@types/node', 'typescript', compiler]) {
    assert.equal(installedPackageDirectory(name), dirname(require.resolve(`${name}/package.json`)), name);
  }
});

test('versions are read from those folders', () => {
  const zod = JSON.parse(readFileSync(require.resolve('zod/package.json'), 'utf8')) as {version: string};
  assert.equal(installedPackageVersion('zod'), zod.version);
  const own = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {version: string};
  assert.equal(packageVersion(), own.version);
});

test("a package that is not installed is the resolver's own error", () => {
  assert.throws(() => installedPackageDirectory('stratos-no-such-package'), {code: 'MODULE_NOT_FOUND'});
});
