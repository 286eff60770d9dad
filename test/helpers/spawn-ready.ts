// Starts a helper process and resolves with its first JSON line (its "ready" report) and the process itself.
import {type ChildProcess, spawn} from 'node:child_process';

export function spawnReady(
  script: string,
  args: readonly string[],
): Promise<{child: ChildProcess; ready: Record<string, unknown>; exited: Promise<void>}> {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.stdout!.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line !== undefined) resolve({child, ready: JSON.parse(line), exited});
    });
    child.once('exit', (code) =>
      reject(new Error(`helper exited with ${code} before it was ready: ${stderr}`)),
    );
  });
}
