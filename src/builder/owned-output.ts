/**
 * Every write and removal under `dist/`, `generated/`, `<root>/.generated/`, `<root>/node_modules/` and
 * `<root>/package.json` stays inside the workflow folder (or the root). Before touching one of those folders, the
 * build checks that no part of the way from its base to the folder, and no entry inside it, is a symbolic link, and
 * that entries Stratos writes as files are files. A violation is a `STRATOS_BUILD_OUTPUT_UNSAFE` error raised before
 * anything is written or deleted. What may be deleted inside them is owned-files.ts's rule.
 */
import {type Dirent, lstatSync, readdirSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {isNotFound} from '../internal/json-file.ts';

function unsafe(path: string, problem: string): StratosError {
  return new StratosError(
    'STRATOS_BUILD_OUTPUT_UNSAFE',
    `${path} ${problem}, so Stratos will not write or delete anything there. Remove it; the build recreates its own folders.`,
    {location: {file: path}, details: {path}},
  );
}

// Synchronous checks: a handful of lstat calls on every build and run, each a thread-pool round trip as a promise.
function kindOf(path: string): 'missing' | 'symlink' | 'directory' | 'file' | 'other' {
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return 'symlink';
    if (stats.isDirectory()) return 'directory';
    return stats.isFile() ? 'file' : 'other';
  } catch (error) {
    if (isNotFound(error)) return 'missing';
    throw error;
  }
}

/** Each existing folder from `base` (exclusive) down to `folder` (inclusive) is a real directory. */
function assertRealPath(base: string, folder: string): void {
  const parts = relative(base, folder).split(sep);
  if (parts[0] === '..' || parts[0] === '') {
    if (folder === base) return;
    throw unsafe(folder, `is outside ${base}`);
  }
  let current = base;
  for (const part of parts) {
    current = join(current, part);
    const kind = kindOf(current);
    if (kind === 'missing') return;
    if (kind === 'symlink') throw unsafe(current, 'is a symbolic link');
    if (kind !== 'directory') throw unsafe(current, 'is not a folder');
  }
}

function assertNoLinksInside(folder: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, {withFileTypes: true});
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isSymbolicLink()) throw unsafe(path, 'is a symbolic link');
    if (entry.isDirectory()) assertNoLinksInside(path);
  }
}

/** `folder` (under `base`) and everything in it may be written and removed. */
export async function assertOwnedFolder(base: string, folder: string): Promise<void> {
  assertRealPath(base, folder);
  assertNoLinksInside(folder);
}

/**
 * `folder` (under `base`) may hold what Stratos writes: it and each folder on the way to it is a real folder or
 * absent. For a folder whose entries are Stratos's links (`<root>/node_modules/`), where {@link assertOwnedFolder}
 * would refuse the links themselves.
 */
export async function assertRealFolder(base: string, folder: string): Promise<void> {
  assertRealPath(base, folder);
}

/** `file` (under `base`) may be written or removed: its folders are real and it is a regular file or absent. */
export async function assertOwnedFile(base: string, file: string): Promise<void> {
  assertRealPath(base, join(file, '..'));
  const kind = kindOf(file);
  if (kind === 'symlink') throw unsafe(file, 'is a symbolic link');
  if (kind === 'directory') throw unsafe(file, 'is a folder where Stratos writes a file');
  if (kind === 'other') throw unsafe(file, 'is not a regular file');
}
