// A worker killed with SIGKILL mid-run (docs/scale-out.md, "Stopping and recovery"): started again under the
// same id, it puts the run back on its queue and runs it from its PostgreSQL journal. The step() counter file
// shows every finished step once; only the step in flight runs again.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {isolateGit} from '../../helpers/git-repo.ts';
import {waitUntil} from '../../helpers/killable-cli.ts';
import {startWorkerProcess, type WorkerProcess} from '../../helpers/queue-worker.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type PostgresServer, startPostgres} from '../../servers/postgres/start-postgres.ts';

let postgres: PostgresServer;
let project: TempProject;
const workers: WorkerProcess[] = [];

/** Four step() calls; the third waits for a `release` file after saying it was reached. */
const stepper = `import {appendFileSync, existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {step, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({dir: z.string().describe('Scratch folder')}),
  output: z.object({values: z.array(z.string()).describe('Step results')}),
  async run({dir}) {
    const values: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      values.push(
        await step(name, async () => {
          appendFileSync(join(dir, 'counter'), name + '\\n');
          if (name === 'c') {
            writeFileSync(join(dir, 'reached-c'), '');
            while (!existsSync(join(dir, 'release'))) await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return name.toUpperCase();
        }),
      );
    }
    return {values};
  },
});
`;

before(async () => {
  await isolateGit();
  postgres = await startPostgres();
  project = await createTempProject();
  project.env.TEST_ENGINE_DB = postgres.url;
  await writeFile(
    join(project.home, 'settings.json'),
    JSON.stringify({engine: {type: 'dbos', databaseUrl: '{env:TEST_ENGINE_DB}', queues: {recover: {}}}}),
  );
  await project.writeWorkflow('stepper', {'workflow.yaml': manifest('stepper'), 'workflow.ts': stepper});
  const git = (args: string[]) => execFileSync('git', args, {cwd: project.cwd, env: process.env});
  git(['init', '-q', '-b', 'main']);
  git(['add', '.']);
  git(['commit', '-q', '-m', 'workflows']);
});

after(async () => {
  for (const worker of workers) await worker.stop('SIGKILL');
  for (const worker of workers)
    assert.ok(!`${worker.stdout()}${worker.stderr()}`.includes(postgres.password));
  await postgres?.stop();
  await project?.remove();
});

test('a worker killed mid-run recovers the run on restart; finished steps are not repeated', async () => {
  const dir = join(project.cwd, 'scratch');
  execFileSync('mkdir', ['-p', dir]);
  const first = await startWorkerProcess(['--queue', 'recover', '--id', 'rec-1'], {
    cwd: project.cwd,
    env: project.env,
  });
  workers.push(first);
  const enqueued = await project.cli([
    'run',
    'stepper',
    '--input',
    JSON.stringify({dir}),
    '--queue',
    'recover',
    '--json',
  ]);
  assert.equal(enqueued.exitCode, 0, enqueued.stderr);
  const runId = enqueued.json.data.runId as string;
  await waitUntil(() => existsSync(join(dir, 'reached-c')));
  first.child.kill('SIGKILL');
  await first.exited;
  assert.equal(readFileSync(join(dir, 'counter'), 'utf8'), 'a\nb\nc\n');
  const interrupted = await project.cli(['runs', 'show', runId, '--json']);
  assert.equal(interrupted.json.data.queued.status, 'running');

  await writeFile(join(dir, 'release'), '');
  const again = await startWorkerProcess(['--queue', 'recover', '--id', 'rec-1'], {
    cwd: project.cwd,
    env: project.env,
  });
  workers.push(again);
  await again.waitFor(new RegExp(`run ${runId} \\(stepper\\) (succeeded|failed)`));
  // a and b were journaled: answered from PostgreSQL. c was in flight: it ran again. d ran once.
  assert.equal(readFileSync(join(dir, 'counter'), 'utf8'), 'a\nb\nc\nc\nd\n');
  const shown = await project.cli(['runs', 'show', runId, '--json']);
  assert.equal(shown.json.data.queued.status, 'succeeded', JSON.stringify(shown.json.data.queued.result));
  assert.deepEqual(shown.json.data.queued.result.output, {values: ['A', 'B', 'C', 'D']});
  assert.equal(shown.json.data.queued.worker, 'rec-1');
  assert.equal(await again.stop('SIGINT'), 0);
});

test('the first Ctrl+C stops taking runs and lets the running one finish; a second stops at once', async () => {
  const dir = join(project.cwd, 'drain');
  execFileSync('mkdir', ['-p', dir]);
  const worker = await startWorkerProcess(['--queue', 'recover', '--id', 'drain-1'], {
    cwd: project.cwd,
    env: project.env,
  });
  workers.push(worker);
  const enqueued = await project.cli([
    'run',
    'stepper',
    '--input',
    JSON.stringify({dir}),
    '--queue',
    'recover',
    '--json',
  ]);
  const runId = enqueued.json.data.runId as string;
  await waitUntil(() => existsSync(join(dir, 'reached-c')));
  worker.child.kill('SIGINT');
  // Still running its run: it only stopped taking new ones.
  await writeFile(join(dir, 'release'), '');
  assert.equal(await worker.exited, 0, worker.stderr());
  assert.match(worker.stdout(), /stopped after 1 run: 1 succeeded, 0 failed/);
  const shown = await project.cli(['runs', 'show', runId, '--json']);
  assert.equal(shown.json.data.queued.status, 'succeeded');

  const second = await startWorkerProcess(['--queue', 'recover', '--id', 'drain-2'], {
    cwd: project.cwd,
    env: project.env,
  });
  workers.push(second);
  const dir2 = join(project.cwd, 'drain-2');
  execFileSync('mkdir', ['-p', dir2]);
  await project.cli([
    'run',
    'stepper',
    '--input',
    JSON.stringify({dir: dir2}),
    '--queue',
    'recover',
    '--json',
  ]);
  await waitUntil(() => existsSync(join(dir2, 'reached-c')));
  second.child.kill('SIGINT');
  await second.waitFor('stopped taking runs');
  second.child.kill('SIGINT');
  assert.equal(await second.exited, 130);
});
