/**
 * Runs the real `git` binary and returns its outcome as data. Output is parsed only in the machine formats
 * (`--porcelain`, `-z`), and the environment is cleaned of variables that would point git at another repository.
 */
import {execFile} from 'node:child_process';

export interface GitResult {
  ok: boolean;
  /** Exit code, or undefined when git could not start. */
  code: number | undefined;
  stdout: string;
  stderr: string;
}

/** Variables that redirect git to another repository or index; a workflow's own environment must not leak in. */
const redirecting = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY'];

export function runGit(args: readonly string[], cwd: string): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = {...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0'};
  for (const name of redirecting) delete env[name];
  return new Promise((resolve) => {
    execFile('git', [...args], {cwd, env, maxBuffer: 32 * 1024 * 1024}, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ok: true, code: 0, stdout, stderr});
        return;
      }
      const code = typeof error.code === 'number' ? error.code : undefined;
      resolve({ok: false, code, stdout, stderr: stderr || error.message});
    });
  });
}

/** The first line of git's complaint, for messages. */
export function gitComplaint(result: GitResult): string {
  const line = result.stderr
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text !== '');
  return line ?? `git exited with code ${result.code ?? 'unknown'}`;
}
