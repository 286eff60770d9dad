/** Facts about this installed copy of Stratos: where its package folder is and which version it is. */
import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
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
