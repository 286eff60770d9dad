// Runs the real CLI (bin/stratos.js on this Node) as a subprocess. Never throws: returns what a user would see.
import {spawn} from 'node:child_process';
import {fileURLToPath} from 'node:url';

export const cliPath = fileURLToPath(new URL('../../bin/stratos.js', import.meta.url));

export interface CliResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON when it is exactly one JSON document, else undefined. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read envelopes of every shape
  json: any;
}

export interface RunCliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Another copy of the CLI's bin/stratos.js to run instead of this checkout's (a simulated other version). */
  cli?: string;
}

export function runCli(args: readonly string[], options: RunCliOptions): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [options.cli ?? cliPath, ...args], {
      cwd: options.cwd,
      env: {...cleanEnv(), ...options.env},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({exitCode, stdout, stderr, json});
    });
  });
}

/** The test process environment minus what would leak the developer's machine into a test. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = {...process.env};
  for (const key of Object.keys(env)) {
    if (key.startsWith('STRATOS_') || key === 'NO_COLOR' || key === 'FORCE_COLOR') delete env[key];
  }
  return env;
}
