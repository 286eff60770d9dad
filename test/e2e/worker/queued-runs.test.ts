// Queued runs and workers on a real PostgreSQL (docs/scale-out.md): the real CLI enqueues, real `stratos worker`
// processes take the runs. One database for the file; each test uses its own queue.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {isolateGit} from '../../helpers/git-repo.ts';
import {startWorkerProcess, type WorkerProcess} from '../../helpers/queue-worker.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type PostgresServer, startPostgres} from '../../servers/postgres/start-postgres.ts';

let postgres: PostgresServer;
let project: TempProject;
const workers: WorkerProcess[] = [];
const outputs: string[] = [];

/** A workflow that logs its start and end to a shared file, with a short pause between. */
const loggedWorkflow = `import {appendFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({log: z.string().describe('The shared log file'), n: z.number().describe('The run number')}),
  output: z.object({n: z.number().describe('The run number')}),
  async run({log, n}) {
    appendFileSync(log, \`start \${n} \${process.pid}\\n\`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    appendFileSync(log, \`end \${n} \${process.pid}\\n\`);
    return {n};
  },
});
`;

function git(args: readonly string[], cwd: string): string {
  return execFileSync('git', [...args], {cwd, encoding: 'utf8', env: process.env});
}

before(async () => {
  await isolateGit();
  postgres = await startPostgres();
  project = await createTempProject();
  project.env.TEST_ENGINE_DB = postgres.url;
  await writeFile(
    join(project.home, 'settings.json'),
    JSON.stringify({
      engine: {
        type: 'dbos',
        databaseUrl: '{env:TEST_ENGINE_DB}',
        queues: {pair: {concurrency: 2}, wait: {}, foreign: {}},
      },
    }),
  );
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('logged', {'workflow.yaml': manifest('logged'), 'workflow.ts': loggedWorkflow});
  git(['init', '-q', '-b', 'main'], project.cwd);
  git(['add', '.'], project.cwd);
  git(['commit', '-q', '-m', 'workflows'], project.cwd);
});

after(async () => {
  for (const worker of workers) await worker.stop('SIGKILL');
  // No output of any command, and no file Stratos wrote, holds the database password.
  for (const worker of workers) outputs.push(worker.stdout(), worker.stderr());
  for (const text of outputs)
    assert.ok(!text.includes(postgres.password), 'an output holds the database password');
  for (const file of listFiles(project.home)) {
    assert.ok(!readFileSync(file, 'utf8').includes(postgres.password), `${file} holds the database password`);
  }
  await postgres?.stop();
  await project?.remove();
});

async function cli(args: readonly string[], cwd = project.cwd) {
  const result = await project.cli(args, {cwd});
  outputs.push(result.stdout, result.stderr);
  return result;
}

async function worker(args: readonly string[], cwd = project.cwd): Promise<WorkerProcess> {
  const started = await startWorkerProcess(args, {cwd, env: project.env});
  workers.push(started);
  return started;
}

test('run --queue --wait prints the envelope a local run prints, run by a worker', async () => {
  const local = await cli(['run', 'echo', '--input', '{"text":"hi"}', '--json']);
  assert.equal(local.exitCode, 0, local.stderr);
  const running = await worker(['--queue', 'wait', '--id', 'wait-1']);
  const queued = await cli([
    'run',
    'echo',
    '--input',
    '{"text":"hi"}',
    '--queue',
    'wait',
    '--wait',
    '--json',
  ]);
  assert.equal(queued.exitCode, 0, queued.stderr);
  assert.equal(queued.json.ok, true);
  assert.deepEqual(queued.json.data.output, local.json.data.output);
  for (const key of Object.keys(local.json.data))
    assert.ok(key in queued.json.data, `data.${key} is missing`);
  assert.match(queued.json.message, /^Workflow 'echo' succeeded in \d+ ms$/);
  assert.equal(queued.json.data.worker, 'wait-1');
  assert.deepEqual(queued.json.warnings, local.json.warnings);

  // A failing run fails the same way: the input error, its code and exit code.
  const badLocal = await cli(['run', 'echo', '--input', '{"text":1}', '--json']);
  const badQueued = await cli([
    'run',
    'echo',
    '--input',
    '{"text":1}',
    '--queue',
    'wait',
    '--wait',
    '--json',
  ]);
  assert.equal(badQueued.exitCode, 1);
  assert.equal(badQueued.json.error.code, badLocal.json.error.code);
  assert.equal(badQueued.json.error.message, badLocal.json.error.message);

  // Without --wait: the run id; runs show and runs list --queue read it from the database.
  const enqueued = await cli(['run', 'echo', '--input', '{"text":"later"}', '--queue', 'wait', '--json']);
  assert.equal(enqueued.exitCode, 0, enqueued.stderr);
  const runId = enqueued.json.data.runId as string;
  assert.match(runId, /^[0-9a-f]{16}$/);
  await running.waitFor(`run ${runId} (echo) succeeded`);
  const shown = await cli(['runs', 'show', runId, '--json']);
  assert.equal(shown.exitCode, 0, shown.stderr);
  assert.equal(shown.json.data.queued.status, 'succeeded');
  assert.deepEqual(shown.json.data.queued.result.output, {echo: 'LATER'});
  const listed = await cli(['runs', 'list', '--queue', 'wait', '--json']);
  assert.equal(listed.exitCode, 0, listed.stderr);
  assert.ok(listed.json.data.queued.some((run: {runId: string}) => run.runId === runId));
  assert.ok(listed.json.data.runs.length > 0, 'local runs are listed too');

  assert.equal(await running.stop('SIGINT'), 0);
  assert.match(running.stdout(), /stopped after \d+ runs/);
});

test('two workers share twenty queued runs within the queue concurrency', async () => {
  const log = join(project.cwd, 'pair.log');
  const clone = join(project.cwd, '..', 'clone');
  git(['clone', '-q', project.cwd, clone], project.cwd);
  const first = await worker(['--queue', 'pair', '--concurrency', '1', '--id', 'pair-1']);
  const second = await worker(['--queue', 'pair', '--concurrency', '1', '--id', 'pair-2'], clone);
  const ids: string[] = [];
  // Enqueued five at a time: each enqueue is its own CLI process.
  for (let batch = 0; batch < 20; batch += 5) {
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((offset) =>
        cli([
          'run',
          'logged',
          '--input',
          JSON.stringify({log, n: batch + offset}),
          '--queue',
          'pair',
          '--json',
        ]),
      ),
    );
    for (const result of results) {
      assert.equal(result.exitCode, 0, result.stderr);
      ids.push(result.json.data.runId);
    }
  }
  for (const id of ids) {
    const ended = new RegExp(`run ${id} \\(logged\\) (succeeded|failed)`);
    await Promise.race([first.waitFor(ended), second.waitFor(ended)]);
  }
  assert.doesNotMatch(first.stderr() + second.stderr(), /\(logged\) failed/);
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  let running = 0;
  let most = 0;
  const perWorker = new Map<string, number>();
  for (const line of lines) {
    const [event, , pid] = line.split(' ');
    running += event === 'start' ? 1 : -1;
    perWorker.set(pid!, (perWorker.get(pid!) ?? 0) + (event === 'start' ? 1 : -1));
    most = Math.max(most, running);
    for (const count of perWorker.values()) assert.ok(count <= 1, 'a worker ran two runs at once');
  }
  assert.equal(lines.length, 40);
  assert.ok(most <= 2, `${most} runs ran at once; the queue allows 2`);
  assert.equal(perWorker.size, 2, 'both workers took runs');
  const listed = await cli(['runs', 'list', '--queue', 'pair', '--limit', '50', '--json']);
  const workersSeen = new Set(listed.json.data.queued.map((run: {worker: string}) => run.worker));
  assert.deepEqual([...workersSeen].sort(), ['pair-1', 'pair-2']);
  await Promise.all([first.stop(), second.stop()]);
});

test('a worker in another repository records a clear failure on the run', async () => {
  const other = join(project.cwd, '..', 'other');
  execFileSync('mkdir', ['-p', other]);
  git(['init', '-q', '-b', 'main'], other);
  await writeFile(join(other, 'README.md'), 'another project\n');
  git(['add', '.'], other);
  git(['commit', '-q', '-m', 'other'], other);
  const stranger = await worker(['--queue', 'foreign', '--id', 'stranger'], other);
  const result = await cli([
    'run',
    'echo',
    '--input',
    '{"text":"x"}',
    '--queue',
    'foreign',
    '--wait',
    '--json',
  ]);
  assert.equal(result.exitCode, 1);
  assert.equal(result.json.error.code, 'STRATOS_QUEUE_REPOSITORY_MISSING');
  assert.match(result.json.error.message, /Start a worker inside a clone of the run's repository/);
  const shown = await cli(['runs', 'show', result.json.error.details.runId, '--json']);
  assert.equal(shown.json.data.queued.status, 'failed');
  assert.equal(shown.json.data.queued.result.error.code, 'STRATOS_QUEUE_REPOSITORY_MISSING');
  await stranger.stop();
});

test('without an engine, --queue and worker say how to configure one', async () => {
  const bare = await createTempProject();
  try {
    const run = await bare.cli(['run', 'echo', '--queue', '--json']);
    assert.equal(run.json.error.code, 'STRATOS_ENGINE_NOT_CONFIGURED');
    const started = await bare.cli(['worker', '--json']);
    assert.equal(started.json.error.code, 'STRATOS_ENGINE_NOT_CONFIGURED');
  } finally {
    await bare.remove();
  }
});

function listFiles(folder: string): string[] {
  return readdirSync(folder, {recursive: true, encoding: 'utf8'})
    .map((entry) => join(folder, entry))
    .filter((path) => statSync(path).isFile());
}

test('STRATOS_ENGINE_DATABASE_URL alone configures the engine (CI), and its password is never shown', async () => {
  const ci = await createTempProject();
  try {
    const listed = await ci.cli(['runs', 'list', '--queue', '--limit', '100', '--json'], {
      env: {STRATOS_ENGINE_DATABASE_URL: postgres.url},
    });
    outputs.push(listed.stdout, listed.stderr);
    assert.equal(listed.exitCode, 0, listed.stderr);
    assert.ok(listed.json.data.queued.length > 0, 'the runs of the other tests are in the database');
    const unknown = await ci.cli(['run', 'echo', '--queue', 'pair', '--json'], {
      env: {STRATOS_ENGINE_DATABASE_URL: postgres.url},
    });
    outputs.push(unknown.stdout, unknown.stderr);
    assert.equal(unknown.json.error.code, 'STRATOS_QUEUE_UNKNOWN');
  } finally {
    await ci.remove();
  }
});
