/** Facts about this installed copy of Stratos: its package folder, its version, the packages it depends on. */
import {readFileSync, realpathSync, statSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

// Bundled files live in <package>/dist/bundle/, compiled ones in <package>/dist/internal/, sources in
// <package>/src/internal/: two levels up in every case (scripts/bundle.ts writes no deeper folder).
export const packageDirectory: string = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let cachedVersion: string | undefined;

export function packageVersion(): string {
  cachedVersion ??= (
    JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {version: string}
  ).version;
  return cachedVersion;
}

const installedCache = new Map<string, string>();

/**
 * The real folder of a package Stratos depends on, as `require.resolve('<name>/package.json')` from this module
 * finds it: the first `node_modules/<name>` in this module's folder or an ancestor (skipping folders named
 * node_modules), with symlinks resolved. A plain walk of a few `stat` calls: Node's resolver costs a few
 * milliseconds on first use, and the cached paths ask for three packages. Anything the walk does not find (a
 * package only on NODE_PATH) is left to `require.resolve`, which also throws Node's own error for a missing one.
 */
export function installedPackageDirectory(name: string): string {
  let found = installedCache.get(name);
  if (found === undefined) {
    found = findInNodeModules(name) ?? requireResolvedDirectory(name);
    installedCache.set(name, found);
  }
  return found;
}

/** The `version` of an installed package ({@link installedPackageDirectory}). */
export function installedPackageVersion(name: string): string {
  const file = join(installedPackageDirectory(name), 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as {version: string}).version;
}

function findInNodeModules(name: string): string | undefined {
  for (let directory = dirname(fileURLToPath(import.meta.url)); ; directory = dirname(directory)) {
    if (basename(directory) !== 'node_modules') {
      const candidate = join(directory, 'node_modules', name);
      if (statSync(join(candidate, 'package.json'), {throwIfNoEntry: false})?.isFile() === true)
        return realpathSync(candidate);
    }
    if (dirname(directory) === directory) return undefined;
  }
}

function requireResolvedDirectory(name: string): string {
  const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  return dirname(require.resolve(`${name}/package.json`));
}
