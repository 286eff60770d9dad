// Hardening, hangs and leftover processes of stdio MCP servers, through the real CLI:
// a server that never answers fails at the connect limit (once, naming the server, its stderr tail and the real
// duration), a build waiting on one is cancelled by SIGINT, and background processes a server started are ended
// with its process group when Stratos closes the connection.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {pollUntil, waitForFile} from '../../helpers/wait-for.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

const q = JSON.stringify;
let project: TempProject;

function stdio(name: string, args: string[], env: Record<string, string> = {}): string {
  const envLines = Object.entries(env).map(([k, v]) => `        ${k}: ${q(v)}\n`);
  return (
    `mcp:\n  servers:\n    ${name}:\n      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q(args)}\n` +
    (envLines.length === 0 ? '' : `      env:\n${envLines.join('')}`)
  );
}

/** A server that starts a background process (its pid written to a file), then serves the `schemas` tools. */
const backgroundServer = `import {spawn} from 'node:child_process';
import {writeFileSync} from 'node:fs';
const background = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {stdio: 'ignore'});
writeFileSync(process.env.BACKGROUND_PID_FILE, String(background.pid));
const server = spawn(process.execPath, [${q(SERVE_SCRIPT)}, 'schemas', '--stdio'], {stdio: 'inherit'});
server.on('exit', (code) => process.exit(code ?? 0));
`;

const usesSchemas = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createTools from './generated/mcp/tools.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({name: z.string().describe('What the tool returned')}),
  async run() {
    const tools = await createTools();
    const result = await tools.object_out({name: 'gear'});
    return {name: result.structuredContent.name};
  },
});
`;

before(async () => {
  project = await createTempProject('stratos-hardening-mcp-');
  await project.writeWorkflow('silent-server', {
    'workflow.yaml': manifest(
      'silent-server',
      stdio('silent', ['-e', "console.error('booting, never answering'); setInterval(() => {}, 1000)"]),
    ),
  });
  await project.writeWorkflow('marked-silent', {
    'workflow.yaml': manifest(
      'marked-silent',
      stdio(
        'silent',
        ['-e', "require('fs').writeFileSync(process.env.MARKER, 'x'); setInterval(() => {}, 1000)"],
        {
          MARKER: join(project.cwd, 'silent-started'),
        },
      ),
    ),
  });
  const directory = await project.writeWorkflow('background', {
    'workflow.yaml': manifest(
      'background',
      stdio('tools', ['bg-server.mjs'], {BACKGROUND_PID_FILE: join(project.cwd, 'background.pid')}),
    ),
    'workflow.ts': usesSchemas,
  });
  await writeFile(join(directory, 'bg-server.mjs'), backgroundServer);
});

after(() => project.remove());

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventuallyDead(pid: number): Promise<boolean> {
  return pollUntil(() => !isAlive(pid), {timeoutMs: 10_000});
}

test('a stdio server that never answers fails once at the connect limit, naming the server and its stderr', async () => {
  const limitMs = 3000;
  const result = await project.cli(['build', 'silent-server', '--json'], {
    env: {STRATOS_MCP_CONNECT_TIMEOUT_MS: String(limitMs)},
  });
  assert.equal(result.exitCode, 1, result.stdout);
  const diagnostics = result.json.error.details.workflows[0].diagnostics;
  const timeout = diagnostics.find((d: {code: string}) => d.code === 'STRATOS_MCP_CONNECT_TIMEOUT');
  assert.ok(timeout, JSON.stringify(diagnostics));
  assert.match(timeout.message, /MCP server 'silent'.*did not answer the connect request within 3\.0 s/);
  assert.match(timeout.message, /booting, never answering/, 'the stderr tail is in the message');
  const waited = Number(/waited ([\d.]+) s/.exec(timeout.message)?.[1]);
  assert.ok(
    waited >= limitMs / 1000 && waited < (2 * limitMs) / 1000,
    `one attempt, not two: waited ${waited} s`,
  );
});

test('SIGINT cancels a build that waits on a server that never answers', async () => {
  const child = spawn(process.execPath, [cliPath, 'build', 'marked-silent', '--json'], {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.resume();
  const marker = join(project.cwd, 'silent-started');
  await waitForFile(marker);
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.notEqual(code, 0);
  const envelope = JSON.parse(stdout);
  assert.equal(envelope.error.code, 'STRATOS_RUN_CANCELLED', stdout);
});

test("a stdio server's background processes end with its process group (build discovery and a run)", async () => {
  const pidFile = join(project.cwd, 'background.pid');
  const built = await project.cli(['build', 'background', '--json']);
  assert.equal(built.exitCode, 0, built.stdout);
  const buildPid = Number(await readFile(pidFile, 'utf8'));
  try {
    assert.ok(await eventuallyDead(buildPid), `the background process ${buildPid} of discovery was ended`);
  } finally {
    if (isAlive(buildPid)) process.kill(buildPid, 'SIGKILL');
  }
  const run = await project.cli(['run', 'background', '--input', '{}', '--json']);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  assert.equal(run.json.data.output.name, 'gear');
  const runPid = Number(await readFile(pidFile, 'utf8'));
  assert.notEqual(runPid, buildPid);
  try {
    assert.ok(await eventuallyDead(runPid), `the background process ${runPid} of the run was ended`);
  } finally {
    if (isAlive(runPid)) process.kill(runPid, 'SIGKILL');
  }
});
