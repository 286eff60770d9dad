/**
 * The `opencode serve` process of one OpenCode agent: started on a free port of its own on 127.0.0.1 (OpenCode's
 * own `--port=0` still listens on 4096, so the port is chosen here), in its own process group so that the MCP
 * servers it starts end with it, and stopped by `stop()` (SIGTERM to the group, SIGKILL after a grace period).
 */
import {type ChildProcess, spawn} from 'node:child_process';
import {createRequire} from 'node:module';
import {createServer} from 'node:net';
import {dirname, join} from 'node:path';
import {StratosError} from '../../../errors/stratos-error.ts';

export interface OpenCodeServer {
  url: string;
  /** Ends the server and every process it started. Idempotent. */
  stop(): Promise<void>;
}

const startTimeoutMs = 120_000;
const stopGraceMs = 5000;

export async function startOpenCodeServer(options: {
  env: Record<string, string>;
  cwd: string;
  signal?: AbortSignal;
}): Promise<OpenCodeServer> {
  const port = await findFreePort();
  const child = spawn(findOpenCodeBinary(), ['serve', '--hostname=127.0.0.1', `--port=${port}`], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stop = stopper(child);
  try {
    const url = await waitForListening(child, port);
    return {url, stop};
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A free port on 127.0.0.1 that is not 4096 (OpenCode's default, which another OpenCode may hold). */
async function findFreePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    if (port !== 4096 && port !== 0) return port;
  }
}

function waitForListening(child: ChildProcess, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(startFailure(`OpenCode did not start its server within ${startTimeoutMs / 1000} s.`)),
      startTimeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (https?:\/\/\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      const url = match[1]!;
      if (!url.endsWith(`:${port}`)) {
        reject(startFailure(`OpenCode listens on ${url} instead of the port Stratos chose (${port}).`));
        return;
      }
      resolve(url);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output = `${output}${chunk.toString('utf8')}`.slice(-4000);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        startFailure(
          `OpenCode exited (${signal ?? `code ${code}`}) before its server listened: ${output.trim().slice(-1000)}`,
        ),
      );
    });
  });
}

function startFailure(message: string): StratosError {
  return new StratosError('STRATOS_AGENT_INIT_FAILED', message, {details: {harness: 'opencode'}});
}

function stopper(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
      const kill = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {}
      };
      const timer = setTimeout(() => kill('SIGKILL'), stopGraceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        // Whatever the server started (MCP servers) shares its process group.
        kill('SIGKILL');
        resolve();
      });
      kill('SIGTERM');
    });
    return stopping;
  };
}

/** The `opencode` binary of the `opencode-ai` package next to the SDK; else `opencode` on PATH. */
function findOpenCodeBinary(): string {
  try {
    const sdkRequire = createRequire(import.meta.resolve('@opencode-ai/sdk'));
    const manifest = sdkRequire.resolve('opencode-ai/package.json');
    const bin = (sdkRequire(manifest) as {bin?: Record<string, string>}).bin?.opencode;
    if (bin !== undefined) return join(dirname(manifest), bin);
  } catch {}
  return 'opencode';
}
