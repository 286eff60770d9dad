// The scale-out engine (docs/performance.md "Scale-out", docs/scale-out.md), against a real PostgreSQL started here
// with its production durability settings (fsync and synchronous commit on):
//   steps       the step seam completing BENCH_STEPS sequential steps, journaled to the local journal.jsonl
//               (appended and fdatasync'ed) or to the PostgreSQL table (committed), side by side in each round;
//               reported as the median per step and the difference
//   throughput  BENCH_RUNS trivial runs: local (`stratos run` processes, two at a time, as two machines would) against
//               queued (enqueued in one client, run by two `stratos worker` processes), from the first start to
//               the last result
// BENCH_ROUNDS (default 5), BENCH_STEPS (default 500), BENCH_RUNS (default 20).
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import pg from 'pg';
import {createJournalSeam} from '../src/context/journal-seam.ts';
import {openJsonlJournalStore} from '../src/context/jsonl-journal-store.ts';
import type {JournalStore} from '../src/context/step-journal.ts';
import {openEngineClient} from '../src/engine/engine-client.ts';
import {createPostgresJournal, ensureJournalTable} from '../src/engine/postgres-journal.ts';
import {isolateGit} from '../test/helpers/git-repo.ts';
import {startWorkerProcess} from '../test/helpers/queue-worker.ts';
import {cleanEnv, cliPath} from '../test/helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest} from '../test/helpers/temp-project.ts';
import {startPostgres} from '../test/servers/postgres/start-postgres.ts';
import {summarize} from './measure.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const steps = Number(process.env.BENCH_STEPS ?? 500);
const runs = Number(process.env.BENCH_RUNS ?? 20);

const postgres = await startPostgres({durable: true});
const scratch = mkdtempSync(join(tmpdir(), 'stratos-scale-out-bench-'));
try {
  await benchSteps();
  await benchThroughput();
} finally {
  await postgres.stop();
  rmSync(scratch, {recursive: true, force: true});
}

async function completeSteps(store: JournalStore): Promise<number> {
  const seam = createJournalSeam('bench', {store});
  const started = performance.now();
  for (let n = 0; n < steps; n++) {
    const step = seam.open({kind: 'step', name: 'work', arguments: {n}});
    await step.complete({value: {n, text: 'a short result'}});
  }
  return (performance.now() - started) / steps;
}

async function benchSteps(): Promise<void> {
  const pool = new pg.Pool({connectionString: postgres.url, max: 4});
  await ensureJournalTable(pool);
  const local: number[] = [];
  const table: number[] = [];
  const differences: number[] = [];
  for (let round = -1; round < rounds; round++) {
    const folder = mkdtempSync(join(scratch, 'run-'));
    const localMs = await completeSteps(openJsonlJournalStore(folder));
    const tableMs = await completeSteps(createPostgresJournal(pool, `bench-${round}`));
    if (round < 0) continue; // warm-up
    local.push(localMs);
    table.push(tableMs);
    differences.push(tableMs - localMs);
  }
  await pool.end();
  const line = (label: string, samples: number[]) =>
    console.log(`${label.padEnd(34)} median ${summarize(label, samples).medianMs.toFixed(3)} ms per step`);
  console.log(`steps: ${steps} sequential steps, ${rounds} rounds`);
  line('local journal.jsonl (fdatasync)', local);
  line('PostgreSQL step_journal (commit)', table);
  line('difference (paired)', differences);
}

async function benchThroughput(): Promise<void> {
  await isolateGit();
  const project = await createTempProject('stratos-scale-out-bench-');
  project.env.BENCH_ENGINE_DB = postgres.url;
  writeFileSync(
    join(project.home, 'settings.json'),
    JSON.stringify({engine: {type: 'dbos', databaseUrl: '{env:BENCH_ENGINE_DB}'}}),
  );
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '.'],
    ['commit', '-q', '-m', 'bench'],
  ]) {
    execFileSync('git', args, {cwd: project.cwd, env: process.env});
  }
  const env = {...cleanEnv(), ...project.env};
  const runLocal = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [cliPath, 'run', 'echo', '--input', '{"text":"hi"}'], {
        cwd: project.cwd,
        env,
        stdio: 'ignore',
      });
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`stratos run exited ${code}`)),
      );
    });
  await runLocal(); // builds the workflow
  const workers = await Promise.all(
    ['bench-1', 'bench-2'].map((id) =>
      startWorkerProcess(['--id', id], {cwd: project.cwd, env: project.env}),
    ),
  );
  const client = await openEngineClient(postgres.url);
  const rootCommit = execFileSync('git', ['rev-list', '--max-parents=0', 'HEAD'], {
    cwd: project.cwd,
    encoding: 'utf8',
  }).trim();
  const request = {
    format: 1 as const,
    repository: {rootCommit},
    workflow: 'echo',
    root: '.stratos/workflows',
    folder: 'echo',
    directory: '',
    input: {text: 'hi'},
    enqueuedAt: new Date().toISOString(),
  };
  const local: number[] = [];
  const queued: number[] = [];
  try {
    for (let round = -1; round < rounds; round++) {
      let started = performance.now();
      const lanes = [0, 1].map(async (lane) => {
        for (let n = lane; n < runs; n += 2) await runLocal();
      });
      await Promise.all(lanes);
      const localMs = performance.now() - started;
      started = performance.now();
      const ids = await Promise.all(Array.from({length: runs}, () => client.enqueue('default', request)));
      const results = await Promise.all(ids.map((id) => client.waitForResult(id)));
      const queuedMs = performance.now() - started;
      if (results.some((result) => !result.ok)) throw new Error('a queued bench run failed');
      if (round < 0) continue;
      local.push(localMs);
      queued.push(queuedMs);
    }
  } finally {
    await client.close();
    await Promise.all(workers.map((worker) => worker.stop('SIGINT')));
    await project.remove();
  }
  const line = (label: string, samples: number[]) => {
    const median = summarize(label, samples).medianMs;
    console.log(
      `${label.padEnd(34)} median ${Math.round(median)} ms (${((runs * 1000) / median).toFixed(1)} runs/s)`,
    );
  };
  console.log(`throughput: ${runs} trivial runs, ${rounds} rounds`);
  line('local, two stratos run at a time', local);
  line('queued, two workers', queued);
}
