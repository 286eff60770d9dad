// `stratos runs open` as a user runs it: the real CLI in its own process, the URL read from its stderr line
// `Runs page: <url> (Ctrl+C to stop)`, stopped with SIGINT like Ctrl+C.
import {type ChildProcess, spawn} from 'node:child_process';
import {cleanEnv, cliPath} from './run-cli.ts';

export interface RunsPageProcess {
  url: string;
  child: ChildProcess;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** Sends SIGINT and resolves with what the command printed and its exit code. */
  stop(): Promise<{exitCode: number | null; stdout: string; stderr: string}>;
}

export function startRunsPage(
  args: readonly string[],
  options: {cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; bin?: string},
): Promise<RunsPageProcess> {
  const child = spawn(process.execPath, [options.bin ?? cliPath, 'runs', 'open', ...args], {
    cwd: options.cwd,
    env: {...cleanEnv(), ...options.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const kill = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /^Runs page: (http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/\S*) \(Ctrl\+C to stop\)$/m.exec(
        stderr,
      );
      if (match !== null)
        resolve({
          url: match[1]!,
          child,
          stderr: () => stderr,
          stop: async () => {
            child.kill('SIGINT');
            const exitCode = await closed;
            clearTimeout(kill);
            return {exitCode, stdout, stderr};
          },
        });
    });
    void closed.then((code) => {
      clearTimeout(kill);
      reject(new Error(`stratos runs open exited (${code}) before printing its URL:\n${stdout}\n${stderr}`));
    });
  });
}
