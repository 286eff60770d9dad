/**
 * One build of a workflow at a time, across processes: a lock file `<root>/.generated/.locks/<folder>.lock`
 * created with O_EXCL. Everything that replaces or reads `dist/` holds it (a build from its first write to its
 * record; a run from its reuse check until its module is loaded), so a concurrent run or build sees the old build
 * or the new one, never a half-written one. A lock whose owner process on this host is gone is broken.
 */
import {link, mkdir, open, readFile, rename, rm} from 'node:fs/promises';
import {hostname} from 'node:os';
import {basename, dirname, join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {isNotFound} from '../internal/json-file.ts';
import {randomHex} from '../internal/random-hex.ts';
import {assertOwnedFolder} from './owned-output.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

/** A build may wait for an npm install or an MCP sign-in of another process: wait long, not forever. */
const timeoutMs = 30 * 60 * 1000;

export function buildLockPath(paths: WorkflowPaths): string {
  return join(paths.root, '.generated', '.locks', `${basename(paths.directory)}.lock`);
}

/** Runs `fn` while holding the workflow's build lock. */
export async function withBuildLock<T>(paths: WorkflowPaths, fn: () => Promise<T>): Promise<T> {
  const file = buildLockPath(paths);
  await assertOwnedFolder(paths.root, dirname(file));
  let token: string;
  try {
    await mkdir(dirname(file), {recursive: true});
    token = await acquire(file, basename(paths.directory));
  } catch (error) {
    // A root nobody may write to cannot be built in either: reading its current build needs no lock.
    if (!['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    return fn();
  }
  try {
    return await fn();
  } finally {
    await release(file, token);
  }
}

async function acquire(file: string, workflow: string): Promise<string> {
  const token = `${process.pid} ${hostname()} ${randomHex(8)}`;
  const deadline = Date.now() + timeoutMs;
  let delayMs = 5;
  for (;;) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(token);
      } finally {
        await handle.close();
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readFile(file, 'utf8').catch(() => undefined);
    if (holder !== undefined && isAbandoned(holder)) {
      await breakAbandoned(file, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new StratosError(
        'STRATOS_BUILD_LOCK_TIMEOUT',
        `Workflow '${workflow}' is still being built by process ${holder?.split(' ')[0] ?? 'unknown'} after ${timeoutMs / 60000} minutes (lock ${file}). Wait for it, or delete the lock file if no Stratos process is running.`,
        {details: {lock: file}},
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs + Math.random() * delayMs));
    delayMs = Math.min(delayMs * 2, 100);
  }
}

/** The owner was a process on this host that is gone. (A lock being written is empty: never abandoned.) */
function isAbandoned(holder: string): boolean {
  const [pid, host] = holder.split(' ');
  if (host !== hostname() || pid === undefined || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function breakAbandoned(file: string, holder: string): Promise<void> {
  const aside = `${file}.abandoned-${randomHex(6)}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  // Another process broke it and took a fresh lock in between: put that one back.
  if ((await readFile(aside, 'utf8').catch(() => holder)) !== holder) await link(aside, file).catch(() => {});
  await rm(aside, {force: true});
}

async function release(file: string, token: string): Promise<void> {
  if ((await readFile(file, 'utf8').catch(() => undefined)) === token) await rm(file, {force: true});
}
