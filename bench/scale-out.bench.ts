// The scale-out engine (docs/performance.md "Scale-out", docs/scale-out.md), against a real PostgreSQL started here
// with its production durability settings (fsync and synchronous commit on):
//   steps       the step seam completing BENCH_STEPS sequential steps, journaled to the local journal.jsonl
//               (appended and fdatasync'ed) or to the PostgreSQL table (committed), side by side in each round;
//               reported as the median per step and the difference
// BENCH_ROUNDS (default 5), BENCH_STEPS (default 500).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import pg from 'pg';
import {createJournalSeam} from '../src/context/journal-seam.ts';
import {openJsonlJournalStore} from '../src/context/jsonl-journal-store.ts';
import type {JournalStore} from '../src/context/step-journal.ts';
import {createPostgresJournal, ensureJournalTable} from '../src/engine/postgres-journal.ts';
import {startPostgres} from '../test/servers/postgres/start-postgres.ts';
import {summarize} from './measure.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const steps = Number(process.env.BENCH_STEPS ?? 500);

const postgres = await startPostgres({durable: true});
const scratch = mkdtempSync(join(tmpdir(), 'stratos-scale-out-bench-'));
try {
  await benchSteps();
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
