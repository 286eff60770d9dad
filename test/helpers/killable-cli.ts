// The real CLI as a subprocess the test can interrupt: SIGKILL (a crash) or SIGINT (Ctrl+C) once a condition holds.
import {type ChildProcess, spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {type CliResult, cleanEnv, cliPath} from './run-cli.ts';

export interface StartedCli {
  child: ChildProcess;
  /** Settles when the process ended, with what it printed. */
  done: Promise<CliResult>;
}

export function startCli(
  args: readonly string[],
  options: {cwd: string; env?: NodeJS.ProcessEnv},
): StartedCli {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd,
    env: {...cleanEnv(), ...options.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (exitCode) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({exitCode, stdout, stderr, json});
    });
  });
  return {child, done};
}

/**
 * Waits until `condition` holds, checking every 20 ms (a condition, never a fixed sleep); fails after `limitMs`
 * or when `ended` settles first (the process ended before reaching the point).
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  ended?: Promise<CliResult>,
  limitMs = 120_000,
): Promise<void> {
  let finished: CliResult | undefined;
  void ended?.then((result) => (finished = result));
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (finished !== undefined)
      throw new Error(`The CLI ended before the condition held:\n${finished.stdout}\n${finished.stderr}`);
    if (Date.now() > deadline) throw new Error('The condition did not hold in time.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits for a file to exist. */
export function waitForFile(path: string, ended?: Promise<CliResult>): Promise<void> {
  return waitUntil(() => existsSync(path), ended);
}
