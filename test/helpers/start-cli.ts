// Starts the real CLI (bin/stratos.js on this Node) as a subprocess without waiting for it, for tests that act
// while it runs (signal it, watch for a marker). Like runCli: the cleaned environment, a SIGKILL after the limit.
import {type ChildProcess, spawn} from 'node:child_process';
import {cleanEnv, cliPath} from './run-cli.ts';

export interface StartedCli {
  child: ChildProcess;
  /** Settles when the process has closed, with its exit code and everything it wrote. */
  done: Promise<{code: number | null; stdout: string; stderr: string}>;
}

export interface StartCliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Killed with SIGKILL after this long (default two minutes), so a hung command ends the test. */
  timeoutMs?: number;
}

/**
 * Starts `stratos <args>` in `cwd`, with `env` over the cleaned test environment; stdin is closed.
 *
 * @example const started = startCli(['run', 'sleeper', '--json'], {cwd: project.cwd, env: project.env});
 */
export function startCli(args: readonly string[], options: StartCliOptions): StartedCli {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd,
    env: {...cleanEnv(), ...options.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const done = new Promise<{code: number | null; stdout: string; stderr: string}>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
  return {child, done};
}
