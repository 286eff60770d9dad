// Durable runs (docs/resume.md). Two figures:
// 1. Journaling cost per step, paired with journaling off: in-process, the step seam with the JSON-lines store
//    (append + fdatasync) against the same seam without a store, alternating rounds of 500 steps; and through the
//    built CLI, a workflow of 200 step() calls against the same 200 calls made directly. Target: at most 1 ms per
//    step (median).
// 2. Resuming a run of 1,000 journaled steps to its first live step (the code throws right after them) against a
//    cached run of a trivial workflow, side by side. Target: at most 1.5x the cached run plus 0.1 ms per replayed
//    step.
import {spawnSync} from 'node:child_process';
import {appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {createJournalSeam} from '../src/context/journal-seam.ts';
import {openJsonlJournalStore} from '../src/context/jsonl-journal-store.ts';
import {cliPath} from '../test/helpers/run-cli.ts';
import {formatTiming, summarize, timeOnce, timeSideBySide} from './measure.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const base = mkdtempSync('/var/tmp/stratos-bench-resume-');
const cwd = join(base, 'work');
const root = join(cwd, '.stratos', 'workflows');
const env = {...process.env, STRATOS_HOME: join(base, 'home'), CI: '1'};

function writeWorkflow(name: string, source: string): void {
  mkdirSync(join(root, name), {recursive: true});
  writeFileSync(
    join(root, name, 'workflow.yaml'),
    `name: ${name}\nshortDescription: Bench workflow ${name}.\nlongDescription: Used by bench/resume.bench.ts.\nversion: "1.0.0"\n`,
  );
  writeFileSync(join(root, name, 'workflow.ts'), source);
}

const loop = (count: number, body: string, after = '') => `import {step, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({fail: z.boolean().default(false).describe('Throw after the steps')}),
  output: z.object({total: z.number().describe('Sum')}),
  async run({fail}) {
    let total = 0;
    for (let i = 0; i < ${count}; i++) total += ${body};
    ${after}
    return {total};
  },
});
`;

async function measureSeam(): Promise<void> {
  const steps = 500;
  const folder = join(base, 'seam');
  const perStep: {on: number[]; unflushed: number[]; off: number[]} = {on: [], unflushed: [], off: []};
  // Written but not flushed: what the seam and the JSON line cost apart from the disk's fdatasync.
  const unflushed = (path: string) => ({
    read: async () => [],
    append: async (entry: unknown) => appendFileSync(path, `${JSON.stringify(entry)}\n`),
  });
  for (let round = 0; round < rounds; round++) {
    const modes = ['on', 'unflushed', 'off'] as const;
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      rmSync(folder, {recursive: true, force: true});
      mkdirSync(folder, {recursive: true});
      const store =
        mode === 'on'
          ? openJsonlJournalStore(folder)
          : mode === 'unflushed'
            ? unflushed(join(folder, 'journal.jsonl'))
            : undefined;
      const seam = createJournalSeam('bench', {store});
      const started = performance.now();
      for (let i = 0; i < steps; i++) {
        const opened = seam.open({kind: 'step', name: 'work', arguments: null});
        await opened.complete({value: {i}});
      }
      perStep[mode].push((performance.now() - started) / steps);
    }
  }
  const show = (label: string, samples: number[]) => {
    const timing = summarize(label, samples);
    console.log(
      `${label}: median ${timing.medianMs.toFixed(3)} ms (min ${timing.minMs.toFixed(3)}, max ${timing.maxMs.toFixed(3)}, n=${samples.length})`,
    );
    return timing.medianMs;
  };
  const on = show('seam, journal flushed (ms per step)', perStep.on);
  const written = show('seam, journal written, not flushed (ms per step)', perStep.unflushed);
  const off = show('seam, journal off (ms per step)', perStep.off);
  const cost = on - off;
  console.log(
    `  ${cost <= 1 ? 'PASS' : 'MISS'} journaling cost ${cost.toFixed(3)} ms per step (target at most 1 ms); without the flush ${(written - off).toFixed(3)} ms`,
  );
}

try {
  await measureSeam();

  writeWorkflow('trivial', loop(1, '1'));
  writeWorkflow('direct', loop(200, '(await (async () => i)())'));
  writeWorkflow('stepped', loop(200, "(await step('work', () => i))"));
  writeWorkflow(
    'thousand',
    loop(1000, "(await step('work', () => i))", "if (fail) throw new Error('stop');"),
  );
  const run = (label: string, name: string, input = '{}') => ({
    label,
    command: process.execPath,
    args: [cliPath, 'run', name, '--input', input, '--json'],
    cwd,
    env,
  });
  for (const name of ['trivial', 'direct', 'stepped', 'thousand']) timeOnce(run(`build ${name}`, name));
  const [direct, stepped] = timeSideBySide(
    [run('200 direct calls', 'direct'), run('200 step() calls', 'stepped')],
    rounds,
    1,
  );
  console.log(formatTiming(direct!));
  console.log(formatTiming(stepped!));
  const perStep = (stepped!.medianMs - direct!.medianMs) / 200;
  console.log(
    `  step() through the CLI: ${perStep.toFixed(3)} ms per step over a direct call (its span, run events and journal; no target)`,
  );

  // The run to resume: 1,000 journaled steps, then a throw.
  const original = spawnSync(process.execPath, run('original', 'thousand', '{"fail":true}').args, {
    cwd,
    env,
    encoding: 'utf8',
  });
  const runId = JSON.parse(original.stdout).error.details.runDirectory.split('/').at(-1) as string;
  const resume = {
    label: 'runs resume (1,000 replayed steps)',
    command: '/bin/sh',
    // The resumed run fails at the same throw, after the replayed steps: that is the first live point.
    args: [
      '-c',
      `"$0" "$1" runs resume "$2" --json >/dev/null; test $? -eq 1`,
      process.execPath,
      cliPath,
      runId,
    ],
    cwd,
    env,
  };
  const [cached, resumed] = timeSideBySide([run('cached run (trivial)', 'trivial'), resume], rounds, 1);
  console.log(formatTiming(cached!));
  console.log(formatTiming(resumed!));
  const budget = 1.5 * cached!.medianMs + 0.1 * 1000;
  console.log(
    `  ${resumed!.medianMs <= budget ? 'PASS' : 'MISS'} resume ${resumed!.medianMs.toFixed(0)} ms (target at most 1.5x cached + 100 ms = ${budget.toFixed(0)} ms)`,
  );
} finally {
  rmSync(base, {recursive: true, force: true});
}
