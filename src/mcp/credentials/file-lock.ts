/**
 * A small cross-process lock: a lock file created with O_EXCL (`wx`), holding the owner's pid, host and a random
 * token. A lock is stale when its owner process on this host is gone, or when it is older than `staleMs` (an owner
 * that hangs). Breaking a stale lock renames it aside first and checks that the moved file is the one judged
 * stale, so two processes breaking the same lock cannot delete a fresh one. Release removes the file only while
 * it still carries this owner's token.
 */
import {randomBytes} from 'node:crypto';
import {link, open, readFile, rename, rm, stat} from 'node:fs/promises';
import {hostname} from 'node:os';
import {AuthenticationError} from '../../errors/index.ts';
import {isNotFound} from '../../internal/json-file.ts';
import {isProcessAlive} from '../../internal/process-alive.ts';

export interface FileLockOptions {
  /** How long to wait for the lock before failing. */
  timeoutMs: number;
  /** Age after which a lock of a live process counts as abandoned. */
  staleMs: number;
  /** What the lock protects, for the timeout message. */
  label: string;
  signal?: AbortSignal | undefined;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  createdAt: number;
}

/**
 * Runs `fn` while holding the lock file `path`.
 *
 * @throws AuthenticationError `STRATOS_CREDENTIALS_LOCK_TIMEOUT` when the lock stays held by a live owner.
 */
export async function withFileLock<T>(
  path: string,
  options: FileLockOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const token = await acquire(path, options);
  try {
    return await fn();
  } finally {
    await release(path, token);
  }
}

async function acquire(path: string, options: FileLockOptions): Promise<string> {
  const token = randomBytes(12).toString('hex');
  const content: LockContent = {pid: process.pid, host: hostname(), token, createdAt: Date.now()};
  const deadline = Date.now() + options.timeoutMs;
  let delayMs = 5;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(content));
      } finally {
        await handle.close();
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(path);
    if (holder !== undefined && isStale(holder, options.staleMs)) {
      await breakStale(path, holder.text);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new AuthenticationError(
        'STRATOS_CREDENTIALS_LOCK_TIMEOUT',
        `The lock ${path} (${options.label}) is still held by process ${holder?.content?.pid ?? 'unknown'} after ${options.timeoutMs} ms. If no other Stratos process is running, delete the lock file.`,
        {details: {lock: path}},
      );
    }
    await sleep(delayMs + Math.random() * delayMs);
    delayMs = Math.min(delayMs * 2, 100);
  }
}

interface Holder {
  text: string;
  content: LockContent | undefined;
  modifiedAt: number;
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let content: LockContent | undefined;
    try {
      content = JSON.parse(text) as LockContent;
    } catch {
      content = undefined; // being written right now, or garbage: only its age can make it stale
    }
    return {text, content, modifiedAt: info.mtimeMs};
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function isStale(holder: Holder, staleMs: number): boolean {
  const createdAt = holder.content?.createdAt ?? holder.modifiedAt;
  if (Date.now() - Math.min(createdAt, holder.modifiedAt) > staleMs) return true;
  const content = holder.content;
  if (content === undefined || content.host !== hostname() || typeof content.pid !== 'number') return false;
  return !isProcessAlive(content.pid);
}

async function breakStale(path: string, staleText: string): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  if (moved !== staleText) {
    // Another process broke the stale lock and took a fresh one in between: put it back.
    await link(aside, path).catch(() => {});
  }
  await rm(aside, {force: true});
}

async function release(path: string, token: string): Promise<void> {
  try {
    const content = JSON.parse(await readFile(path, 'utf8')) as Partial<LockContent>;
    if (content.token === token) await rm(path, {force: true});
  } catch {
    // Gone or replaced: it is no longer ours to remove.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
