// Hardening, every command that can wait honours the first SIGINT or SIGTERM the way run and build do, through the
// real CLI as a subprocess: describe and schema preparing the MCP wrapper of a stdio server that never answers,
// provider status and mcp login waiting on an HTTP endpoint that accepts and never answers. Each is signalled once
// it is seen waiting (a marker file written by the server, or the endpoint's first connection), then ends with
// the STRATOS_RUN_CANCELLED envelope and exit code 1.
import assert from 'node:assert/strict';
import {createServer, type Server, type Socket} from 'node:net';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {type StartedCli, startCli} from '../../helpers/start-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {waitForFile} from '../../helpers/wait-for.ts';

const q = JSON.stringify;

/** Uses the generated wrapper, so preparing the workflow must discover the server's tools. */
const usesSilent = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createSilent from './generated/mcp/silent.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({ok: z.boolean().describe('Always true')}),
  async run() {
    await createSilent();
    return {ok: true};
  },
});
`;
let project: TempProject;
let silent: Server;
let silentUrl: string;
const sockets = new Set<Socket>();
/** Resolvers waiting for the next connection to the silent endpoint. */
const connectionWaiters: (() => void)[] = [];

before(async () => {
  project = await createTempProject('stratos-hardening-signal-commands-');
  // Accepts connections and never answers a byte.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    for (const waiter of connectionWaiters.splice(0)) waiter();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as {port: number}).port}`;
  for (const command of ['describe', 'schema']) {
    const marker = join(project.cwd, `${command}-server-started`);
    await project.writeWorkflow(`silent-${command}`, {
      'workflow.yaml': manifest(
        `silent-${command}`,
        `mcp:\n  servers:\n    silent:\n      type: stdio\n      command: ${q(process.execPath)}\n` +
          `      args: ["-e", ${q(`require('fs').writeFileSync(${q(marker)}, 'x'); setInterval(() => {}, 1000)`)}]\n`,
      ),
      'workflow.ts': usesSilent,
    });
  }
  await project.writeWorkflow('oauth-silent', {
    'workflow.yaml': manifest(
      'oauth-silent',
      `mcp:\n  servers:\n    remote:\n      type: http\n      url: ${silentUrl}/mcp\n      auth:\n        type: oauth\n`,
    ),
  });
});

after(async () => {
  for (const socket of sockets) socket.destroy();
  silent.close();
  await project.remove();
});

function start(args: string[], env: NodeJS.ProcessEnv = {}): StartedCli {
  return startCli(args, {cwd: project.cwd, env: {...project.env, ...env}});
}

async function assertCancelled(started: StartedCli, signal: 'SIGINT' | 'SIGTERM'): Promise<void> {
  const result = await started.done;
  assert.equal(result.code, 1, result.stderr);
  const envelope = JSON.parse(result.stdout);
  assert.equal(envelope.ok, false);
  assert.equal(envelope.error.code, 'STRATOS_RUN_CANCELLED', result.stdout);
  assert.match(envelope.error.message, new RegExp(`cancelled by ${signal}`));
}

// The connect limit is far above the test's life: only the signal can end these commands.
const patient = {STRATOS_MCP_CONNECT_TIMEOUT_MS: '600000'};

for (const [command, signal] of [
  ['describe', 'SIGINT'],
  ['describe', 'SIGTERM'],
  ['schema', 'SIGINT'],
  ['schema', 'SIGTERM'],
] as const) {
  test(`${signal} cancels ${command} while it prepares the wrapper of a server that never answers`, async () => {
    const marker = join(project.cwd, `${command}-server-started`);
    const started = start([command, `silent-${command}`, '--json'], patient);
    await waitForFile(marker);
    started.child.kill(signal);
    await assertCancelled(started, signal);
    const {rm} = await import('node:fs/promises');
    await rm(marker);
  });
}

function nextConnection(): Promise<void> {
  return new Promise((resolve) => connectionWaiters.push(resolve));
}

test('SIGTERM cancels provider status while the Ollama endpoint never answers', async () => {
  const connected = nextConnection();
  const started = start(['provider', 'status', '--json'], {OLLAMA_HOST: silentUrl});
  await connected;
  started.child.kill('SIGTERM');
  await assertCancelled(started, 'SIGTERM');
});

test('SIGINT cancels mcp login while the server never answers', async () => {
  const connected = nextConnection();
  const started = start(['mcp', 'login', '--name', 'remote', '--json'], {BROWSER: 'true'});
  await connected;
  started.child.kill('SIGINT');
  await assertCancelled(started, 'SIGINT');
});
