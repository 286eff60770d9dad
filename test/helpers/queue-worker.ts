// `stratos worker` as a long-running subprocess of the real CLI: started, waited for until it takes runs (its
// ready notice on stderr), stopped with a signal or killed. Output is kept for assertions.
import {type ChildProcess, spawn} from 'node:child_process';
import {cleanEnv, cliPath} from './run-cli.ts';

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the worker wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr contains `text`. */
  waitFor(text: string | RegExp): Promise<void>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit (SIGINT: stop taking runs, let running ones end). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `stratos worker <args>` in `cwd` and resolves once it takes runs. */
export async function startWorkerProcess(
  args: readonly string[],
  options: {cwd: string; env: NodeJS.ProcessEnv},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [cliPath, 'worker', ...args], {
    cwd: options.cwd,
    env: {...cleanEnv(), ...options.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: {text: string | RegExp; resolve: () => void}[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (typeof waiter.text === 'string' ? stderr.includes(waiter.text) : waiter.text.test(stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
    check();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const worker: WorkerProcess = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({text, resolve});
        check();
        void exited.then((code) =>
          reject(new Error(`the worker exited (${code}) before '${text}':\n${stderr}`)),
        );
      }),
    exited,
    stop: async (signal = 'SIGINT') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  await worker.waitFor('is taking runs');
  return worker;
}
