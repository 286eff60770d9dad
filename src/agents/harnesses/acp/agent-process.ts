/**
 * The process of one ACP agent: started from the agent's `command` and `args` in its working directory, in its own
 * process group (so whatever it starts, MCP servers included, ends with it), its stdio the ACP connection, its
 * stderr kept (the last few kilobytes) for failure messages. `stop()` closes stdin, then sends SIGTERM to the group
 * and SIGKILL after a grace period; the agent never outlives the agent object that started it.
 */
import {type ChildProcess, spawn} from 'node:child_process';
import {Readable, Writable} from 'node:stream';

export interface AcpAgentProcess {
  /** The agent's stdin and stdout as web streams, for the ACP SDK's `ndJsonStream`. */
  input: WritableStream<Uint8Array>;
  output: ReadableStream<Uint8Array>;
  /** Settles when the process has exited (or failed to start), with how it ended. */
  exited: Promise<string>;
  /** The end of what the agent wrote to stderr. */
  stderrTail(): string;
  /** Ends the process and its group. Idempotent. */
  stop(): Promise<void>;
}

const stopGraceMs = 5000;
const stderrLimit = 4000;

/** Starts the agent process; a missing command is reported through `exited` (and the failing connection). */
export function startAcpAgentProcess(options: {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
}): AcpAgentProcess {
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString('utf8')}`.slice(-stderrLimit);
  });
  // A write after the agent exited is reported by the connection, not as an unhandled stream error.
  child.stdin?.on('error', () => {});
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ENOENT'
          ? `the command '${options.command}' was not found (is it installed and on PATH?)`
          : `the command '${options.command}' could not start: ${error.message}`,
      ),
    );
    // `close`: the process ended and its stdio is drained, so its last stderr words are kept.
    child.once('close', (code, signal) =>
      resolve(signal === null ? `it exited with code ${code}` : `it ended by ${signal}`),
    );
  });
  live.add(child);
  if (live.size === 1) process.once('exit', killLive);
  const stop = stopper(child, exited, () => {
    live.delete(child);
    if (live.size === 0) process.off('exit', killLive);
  });
  return {
    input: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    output: Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
    exited,
    stderrTail: () => stderr.trim(),
    stop,
  };
}

/** Agent processes not yet stopped: killed with their groups if Stratos itself exits first (one listener). */
const live = new Set<ChildProcess>();

function killLive(): void {
  for (const child of live) kill(child, 'SIGKILL');
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

function stopper(child: ChildProcess, exited: Promise<string>, done: () => void): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        child.stdin?.end();
        kill(child, 'SIGTERM');
        const timer = setTimeout(() => kill(child, 'SIGKILL'), stopGraceMs);
        await exited;
        clearTimeout(timer);
      }
      // Whatever the agent started shares its process group.
      kill(child, 'SIGKILL');
      done();
    })();
    return stopping;
  };
}
