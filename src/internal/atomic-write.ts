/** Write a file by writing a temporary sibling and renaming it over the target, so readers never see half. */
import {closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {randomHex} from './random-hex.ts';

export interface AtomicWriteOptions {
  /** File mode of the temporary file from its creation, kept by the rename. Default 0o644. */
  mode?: number;
}

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  // Synchronous calls: these are small files, often on the path of every command, where each promise-based call
  // costs a thread-pool round trip (json-file.ts).
  const dir = dirname(file);
  mkdirSync(dir, {recursive: true});
  const temporary = join(dir, `.${basename(file)}.${randomHex(6)}.tmp`);
  const fd = openSync(temporary, 'wx', options.mode ?? 0o644);
  try {
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    // A failed write (a full disk) or rename leaves no temporary file behind.
    rmSync(temporary, {force: true});
    throw error;
  }
}

/**
 * Overwrites an existing file in place and cuts it to the new length: the fallback when a full disk has no room
 * for a temporary sibling. The file's own blocks are reused, so a record no longer than the old one fits.
 * Readers may see a mix for a moment; use it only where a stale record is worse than that.
 */
export async function overwriteFileInPlace(file: string, data: string): Promise<void> {
  const bytes = Buffer.from(data, 'utf8');
  const handle = await open(file, 'r+');
  try {
    await handle.write(bytes, 0, bytes.length, 0);
    await handle.truncate(bytes.length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
