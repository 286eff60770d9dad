// What `npm run build` reads from the repository, hashed: src/, the bundle script, the tsconfig files, package.json
// and the lock file. scripts/bundle.ts writes the hash to dist/.build-inputs as the build's last step, and
// scripts/build-if-stale.ts compares it to skip a build whose inputs did not change.
import {createHash} from 'node:crypto';
import {existsSync, globSync, readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';

export const repository = resolve(import.meta.dirname, '..');
export const buildInputsStamp = join(repository, 'dist', '.build-inputs');

/** A hash of every build input's path and bytes, in sorted order. */
export function hashBuildInputs(): string {
  const files = [
    ...globSync('src/**/*', {cwd: repository, withFileTypes: true})
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(repository.length + 1)),
    'scripts/bundle.ts',
    'tsconfig.json',
    'package.json',
    'package-lock.json',
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(repository, file);
    hash.update(`${file}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}
