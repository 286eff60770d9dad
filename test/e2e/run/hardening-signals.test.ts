// Hardening, cancellation, through the real CLI as a subprocess: the first SIGINT or SIGTERM
// cancels a sleeping workflow (its signal fires), prints the STRATOS_RUN_CANCELLED envelope, exits non-zero and
// records `cancelled`; a second signal exits at once and still records `cancelled`; a SIGKILLed run is reconciled
// to a final state by the next command that reads runs.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readdir, readFile} from 'node:fs/promises';
import {createServer, type Server, type Socket} from 'node:net';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {type StartedCli, startCli} from '../../helpers/start-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {waitForFile} from '../../helpers/wait-for.ts';

const sleeper = `import {writeFileSync} from 'node:fs';
import {currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({marker: z.string().describe('Where to note progress')}),
  output: z.object({slept: z.boolean().describe('Always true')}),
  async run({marker}) {
    currentExecution().signal.addEventListener('abort', () => writeFileSync(marker + '.aborted', 'yes'));
    writeFileSync(marker, 'started');
    await new Promise((resolve) => setTimeout(resolve, 600_000));
    return {slept: true};
  },
});
`;

let project: TempProject;
let hangingOtlp: Server;
const sockets = new Set<Socket>();

before(async () => {
  project = await createTempProject('stratos-hardening-signals-');
  // An OTLP endpoint that accepts and never answers: the graceful end of a run then waits for export.
  hangingOtlp = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => hangingOtlp.listen(0, '127.0.0.1', resolve));
  const port = (hangingOtlp.address() as {port: number}).port;
  await project.writeWorkflow('sleeper', {'workflow.yaml': manifest('sleeper'), 'workflow.ts': sleeper});
  await project.writeWorkflow('slow-export', {
    'workflow.yaml': manifest(
      'slow-export',
      `telemetry:\n  exporters:\n    - type: otlp\n      protocol: http/json\n      endpoint: http://127.0.0.1:${port}/v1/traces\n`,
    ),
    'workflow.ts': sleeper,
  });
  for (const name of ['sleeper', 'slow-export']) {
    const built = await project.cli(['build', name]);
    assert.equal(built.exitCode, 0, built.stderr);
  }
});

after(async () => {
  for (const socket of sockets) socket.destroy();
  hangingOtlp.close();
  await project.remove();
});

function start(args: string[]): StartedCli {
  return startCli(args, {cwd: project.cwd, env: project.env});
}

async function runRecords(): Promise<Record<string, {status: string; error?: {code: string}}>> {
  const runs = join(project.home, 'runs');
  const records: Record<string, {status: string; error?: {code: string}}> = {};
  for (const workspace of await readdir(runs, {withFileTypes: true})) {
    if (!workspace.isDirectory()) continue;
    for (const run of await readdir(join(runs, workspace.name), {withFileTypes: true})) {
      if (!run.isDirectory()) continue;
      const record = JSON.parse(await readFile(join(runs, workspace.name, run.name, 'run.json'), 'utf8'));
      records[record.executionId] = record;
    }
  }
  return records;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`the first ${signal} cancels a sleeping run: envelope, signal fired, run.json cancelled`, async () => {
    const marker = join(project.cwd, `marker-${signal}`);
    const run = start(['run', 'sleeper', '--input', JSON.stringify({marker}), '--json']);
    await waitForFile(marker);
    run.child.kill(signal);
    const result = await run.done;
    assert.notEqual(result.code, 0);
    const envelope = JSON.parse(result.stdout);
    assert.equal(envelope.ok, false);
    assert.equal(envelope.error.code, 'STRATOS_RUN_CANCELLED', result.stdout);
    assert.match(envelope.error.message, new RegExp(signal));
    assert.ok(existsSync(`${marker}.aborted`), "the workflow's signal fired");
    const record = (await runRecords())[envelope.error.details.executionId];
    assert.equal(record?.status, 'cancelled');
  });
}

test('a second SIGINT exits at once and still records cancelled', async () => {
  const marker = join(project.cwd, 'marker-twice');
  const run = start(['run', 'slow-export', '--input', JSON.stringify({marker}), '--json']);
  await waitForFile(marker);
  run.child.kill('SIGINT');
  await waitForFile(`${marker}.aborted`);
  run.child.kill('SIGINT');
  const result = await run.done;
  assert.equal(result.code, 130, result.stderr);
  assert.match(result.stderr, /second SIGINT/);
  const records = Object.values(await runRecords()).filter((r) => r.status !== 'cancelled');
  assert.deepEqual(
    records.map((r) => r.status),
    [],
    'no run is left running',
  );
});

test('a SIGKILLed run is reconciled to failed (STRATOS_RUN_INTERRUPTED) by the next runs list', async () => {
  const marker = join(project.cwd, 'marker-kill');
  const run = start(['run', 'sleeper', '--input', JSON.stringify({marker}), '--json']);
  await waitForFile(marker);
  run.child.kill('SIGKILL');
  await run.done;
  const before = Object.values(await runRecords()).filter((r) => r.status === 'running');
  assert.equal(before.length, 1, 'the killed run says running on disk');
  const listed = await project.cli(['runs', 'list', '--json']);
  assert.equal(listed.exitCode, 0, listed.stdout);
  const interrupted = listed.json.data.runs.filter(
    (r: {error?: {code: string}}) => r.error?.code === 'STRATOS_RUN_INTERRUPTED',
  );
  assert.equal(interrupted.length, 1);
  assert.equal(interrupted[0].status, 'failed');
  assert.equal(interrupted[0].stale, true);
  const after = Object.values(await runRecords());
  assert.equal(after.filter((r) => r.status === 'running').length, 0, 'run.json was rewritten');
  assert.equal(after.filter((r) => r.error?.code === 'STRATOS_RUN_INTERRUPTED').length, 1);
});
