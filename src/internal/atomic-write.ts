/** Write a file by writing a temporary sibling and renaming it over the target, so readers never see half. */
import {randomBytes} from 'node:crypto';
import {mkdir, open, rename, rm} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of the temporary file from its creation, kept by the rename. Default 0o644. */
  mode?: number;
}

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, {recursive: true});
  const temporary = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, {force: true});
    throw error;
  }
}
