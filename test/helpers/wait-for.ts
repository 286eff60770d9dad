// Waiting for a condition instead of a fixed sleep: a test polls what it waits for (a file, a process, a record, a
// line of output) at a short interval, bounded by a generous time limit so a loaded machine only makes it slower.
import {existsSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';

export type PollOptions = {
  /** How long to keep trying, in milliseconds; the condition is tried once more after the limit. */
  timeoutMs: number;
  /** The pause between tries, in milliseconds (default 50). */
  intervalMs?: number;
};

export type WaitOptions = PollOptions & {
  /** What is awaited, for the timeout message: "the server's URL line", "run.json to say failed". */
  what: string;
};

/** What a condition returns once it is met: a truthy value. */
type Met<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Tries `condition` until it returns a truthy value or `timeoutMs` has passed, and returns its last value either
 * way: the caller asserts on it (or on what it waited for), so a failure shows what was there at the end.
 *
 * @example const found = await pollUntil(() => readFile(file, 'utf8').catch(() => ''), {timeoutMs: 30_000});
 */
export async function pollUntil<T>(condition: () => T | Promise<T>, options: PollOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await condition();
    if (value || Date.now() > deadline) return value;
    await sleep(options.intervalMs ?? 50);
  }
}

/**
 * Tries `condition` until it returns a truthy value and returns that value; throws `Timed out after <n> ms waiting
 * for <what>.` when `timeoutMs` passes first.
 *
 * @example await waitFor(() => existsSync(marker), {timeoutMs: 60_000, what: 'the server to start'});
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions): Promise<Met<T>> {
  const value = await pollUntil(condition, options);
  if (!value) throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${options.what}.`);
  return value as Met<T>;
}

/** Waits for a file (a marker a process writes when it reaches a point) to exist; throws after `timeoutMs`. */
export async function waitForFile(path: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(() => existsSync(path), {timeoutMs, what: `${path} to appear`});
}
