/**
 * One build of a workflow at a time, across processes: a lock file `<root>/.generated/.locks/<folder>.lock`
 * created with O_EXCL. Everything that replaces or reads `dist/` holds it (a build from its first write to its
 * record; a run from its reuse check until its module is loaded), so a concurrent run or build sees the old build
 * or the new one, never a half-written one. A lock whose owner process on this host is gone is broken.
 */
import {closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync} from 'node:fs';
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
    mkdirSync(dirname(file), {recursive: true});
    token = await acquire(file, basename(paths.directory));
  } catch (error) {
    // A root nobody may write to cannot be built in either: reading its current build needs no lock.
    if (!['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    return fn();
  }
  try {
    return await fn();
  } finally {
    release(file, token);
  }
}

async function acquire(file: string, workflow: string): Promise<string> {
  const token = `${process.pid} ${hostname()} ${randomHex(8)}`;
  const deadline = Date.now() + timeoutMs;
  let delayMs = 5;
  for (;;) {
    // Synchronous file calls, as for every small file on the path of a command (internal/json-file.ts); only the
    // wait between attempts yields.
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readText(file);
    if (holder !== undefined && isAbandoned(holder)) {
      breakAbandoned(file, holder);
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

function breakAbandoned(file: string, holder: string): void {
  const aside = `${file}.abandoned-${randomHex(6)}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  // Another process broke it and took a fresh lock in between: put that one back.
  if ((readText(aside) ?? holder) !== holder) {
    try {
      linkSync(aside, file);
    } catch {}
  }
  rmSync(aside, {force: true});
}

function release(file: string, token: string): void {
  if (readText(file) === token) rmSync(file, {force: true});
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
