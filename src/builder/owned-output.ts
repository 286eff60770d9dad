/**
 * Every write and removal under `dist/`, `generated/` and `<root>/.generated/` stays inside the workflow folder
 * (or the root). Before touching one of those folders, the build checks that no part of the way from its base to
 * the folder, and no entry inside it, is a symbolic link, and that entries Stratos writes as files are files. A
 * violation is a `STRATOS_BUILD_OUTPUT_UNSAFE` error raised before anything is written or deleted.
 */
import {lstat, readdir} from 'node:fs/promises';
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

async function kindOf(path: string): Promise<'missing' | 'symlink' | 'directory' | 'file' | 'other'> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return 'symlink';
    if (stats.isDirectory()) return 'directory';
    return stats.isFile() ? 'file' : 'other';
  } catch (error) {
    if (isNotFound(error)) return 'missing';
    throw error;
  }
}

/** Each existing folder from `base` (exclusive) down to `folder` (inclusive) is a real directory. */
async function assertRealPath(base: string, folder: string): Promise<void> {
  const parts = relative(base, folder).split(sep);
  if (parts[0] === '..' || parts[0] === '') {
    if (folder === base) return;
    throw unsafe(folder, `is outside ${base}`);
  }
  let current = base;
  for (const part of parts) {
    current = join(current, part);
    const kind = await kindOf(current);
    if (kind === 'missing') return;
    if (kind === 'symlink') throw unsafe(current, 'is a symbolic link');
    if (kind !== 'directory') throw unsafe(current, 'is not a folder');
  }
}

async function assertNoLinksInside(folder: string): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(folder, {withFileTypes: true});
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isSymbolicLink()) throw unsafe(path, 'is a symbolic link');
    if (entry.isDirectory()) await assertNoLinksInside(path);
  }
}

/** `folder` (under `base`) and everything in it may be written and removed. */
export async function assertOwnedFolder(base: string, folder: string): Promise<void> {
  await assertRealPath(base, folder);
  await assertNoLinksInside(folder);
}

/** `file` (under `base`) may be written or removed: its folders are real and it is a regular file or absent. */
export async function assertOwnedFile(base: string, file: string): Promise<void> {
  await assertRealPath(base, join(file, '..'));
  const kind = await kindOf(file);
  if (kind === 'symlink') throw unsafe(file, 'is a symbolic link');
  if (kind === 'directory') throw unsafe(file, 'is a folder where Stratos writes a file');
  if (kind === 'other') throw unsafe(file, 'is not a regular file');
}
