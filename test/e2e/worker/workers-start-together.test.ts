// Workers and an enqueuing command starting at the same moment on a fresh database: DBOS's migrations run once,
// under a lock that no waiting process can stall, and the enqueuing command's --json stdout stays one envelope.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {isolateGit} from '../../helpers/git-repo.ts';
import {startWorkerProcess, type WorkerProcess} from '../../helpers/queue-worker.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {type PostgresServer, startPostgres} from '../../servers/postgres/start-postgres.ts';

let postgres: PostgresServer | undefined;
let project: TempProject | undefined;
const workers: WorkerProcess[] = [];

after(async () => {
  for (const worker of workers) await worker.stop('SIGKILL');
  await postgres?.stop();
  await project?.remove();
});

test('two workers and an enqueue start together on a fresh database', async () => {
  await isolateGit();
  postgres = await startPostgres();
  project = await createTempProject();
  project.env.TEST_ENGINE_DB = postgres.url;
  await writeFile(
    join(project.home, 'settings.json'),
    JSON.stringify({engine: {type: 'dbos', databaseUrl: '{env:TEST_ENGINE_DB}'}}),
  );
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '.'],
    ['commit', '-q', '-m', 'w'],
  ]) {
    execFileSync('git', args, {cwd: project.cwd, env: process.env});
  }
  const {cwd, env} = project;
  const [enqueued, ...started] = await Promise.all([
    project.cli(['run', 'echo', '--input', '{"text":"together"}', '--queue', '--wait', '--json']),
    startWorkerProcess(['--id', 'together-1'], {cwd, env}),
    startWorkerProcess(['--id', 'together-2'], {cwd, env}),
  ]);
  workers.push(...started);
  assert.equal(enqueued.exitCode, 0, enqueued.stderr);
  assert.deepEqual(enqueued.json.data.output, {echo: 'TOGETHER'});
  for (const worker of started) assert.equal(await worker.stop('SIGINT'), 0, worker.stderr());
});
