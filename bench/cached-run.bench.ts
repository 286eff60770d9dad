// The two floors Stratos's cached paths are held to (docs/performance.md), each measured side by side
// with its baseline in one run, as medians of paired runs of real processes:
//   1. a cached `stratos run` of a trivial workflow (one strict string input, one output) against a plain Node
//      script that imports zod and parses the same input with the same schemas: at most 1.2x;
//   2. a no-op `stratos build` of that workflow against `node -e 0`: at most 2x.
// Writes bench/.results/cached-run-<time>.json too.
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {cpus, loadavg, tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {type Command, formatTiming, summarize, type Timing, timeOnce} from './measure.ts';

const repo = resolve(import.meta.dirname, '..');
const cli = join(repo, 'bin', 'stratos.js');
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const base = realpathSync(mkdtempSync(join(tmpdir(), 'stratos-bench-cached-')));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  STRATOS_HOME: join(base, 'home'),
  HOME: join(base, 'os-home'),
  CI: '1',
};
for (const key of Object.keys(env)) if (key.startsWith('STRATOS_') && key !== 'STRATOS_HOME') delete env[key];
mkdirSync(env.HOME!, {recursive: true});

const cwd = join(base, 'project');
const directory = join(cwd, '.stratos', 'workflows', 'trivial');
mkdirSync(directory, {recursive: true});
writeFileSync(
  join(directory, 'workflow.yaml'),
  'name: trivial\nshortDescription: Echo one string.\nlongDescription: Measures run overhead.\nversion: "1.0.0"\n',
);
writeFileSync(
  join(directory, 'workflow.ts'),
  `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({text: z.string().describe('The same text')}),
  run: ({text}) => ({text}),
});
`,
);
const zod = pathToFileURL(join(repo, 'node_modules', 'zod', 'index.js')).href;
const plain = join(base, 'plain.mjs');
writeFileSync(
  plain,
  `import {z} from ${JSON.stringify(zod)};
const input = z.strictObject({text: z.string().describe('Text')});
const output = z.object({text: z.string().describe('The same text')});
const parsed = input.parse(JSON.parse(process.argv[2]));
process.stdout.write(JSON.stringify(output.parse({text: parsed.text}), null, 2) + '\\n');
`,
);
const input = '{"text":"hello"}';
const stratos = (label: string, args: string[]): Command => ({
  label,
  command: process.execPath,
  args: [cli, ...args],
  cwd,
  env,
});
const node = (label: string, args: string[]): Command => ({label, command: process.execPath, args, cwd, env});

/** Runs the pair alternately (which goes first alternates too); the ratio is the median of per-round ratios. */
function timePair(measured: Command, baseline: Command): {measured: Timing; baseline: Timing; ratio: number} {
  for (let i = 0; i < 3; i++) for (const command of [measured, baseline]) timeOnce(command);
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      a.push(timeOnce(measured));
      b.push(timeOnce(baseline));
    } else {
      b.push(timeOnce(baseline));
      a.push(timeOnce(measured));
    }
  }
  const ratios = a.map((value, index) => value / b[index]!);
  return {
    measured: summarize(measured.label, a),
    baseline: summarize(baseline.label, b),
    ratio: summarize('ratio', ratios).medianMs,
  };
}

/**
 * What a command loads, from one extra untimed run with a recorder: module files by origin (a load hook) and the
 * Node built-in modules compiled beyond an empty script's (process.moduleLoadList). Each costs start-up time.
 */
const recorder = join(base, 'record-modules.mjs');
writeFileSync(
  recorder,
  `import {registerHooks} from 'node:module';
import {writeFileSync} from 'node:fs';
const urls = [];
const builtinsAtStart = new Set(process.moduleLoadList);
registerHooks({load(url, context, next) { urls.push(url); return next(url, context); }});
process.on('exit', () => writeFileSync(process.env.STRATOS_BENCH_RECORD, JSON.stringify({
  urls, builtins: process.moduleLoadList.filter((name) => !builtinsAtStart.has(name) && name.startsWith('NativeModule')),
})));
`,
);
interface LoadedModules {
  stratos: number;
  zod: number;
  otherPackages: number;
  builtins: number;
}
function countModules(command: Command): LoadedModules {
  const record = join(base, 'record.json');
  timeOnce({
    ...command,
    args: ['--import', pathToFileURL(recorder).href, ...command.args],
    env: {...command.env, STRATOS_BENCH_RECORD: record},
  });
  const {urls, builtins} = JSON.parse(readFileSync(record, 'utf8')) as {urls: string[]; builtins: string[]};
  const files = urls.filter((url) => url.startsWith('file:'));
  const packages = files.filter((url) => url.includes('/node_modules/'));
  const zodFiles = packages.filter((url) => url.includes('/node_modules/zod/')).length;
  return {
    stratos: files.length - packages.length,
    zod: zodFiles,
    otherPackages: packages.length - zodFiles,
    builtins: builtins.length,
  };
}
const formatModules = (m: LoadedModules) =>
  `${m.stratos} own files (Stratos, workflow, scripts), ${m.zod} zod, ${m.otherPackages} other package files, ${m.builtins} built-ins`;

/** The 1-minute load average: the figures are only comparable with others measured at a similar load. */
const load = () => loadavg()[0]!.toFixed(2);
const loadAtStart = load();
console.log(
  `${cpus().length} cpus, ${process.version}; ${rounds} paired rounds; load ${loadAtStart}; temp ${base}`,
);
try {
  timeOnce(stratos('first run (builds)', ['run', 'trivial', '--input', input]));
  const run = timePair(
    stratos('stratos run trivial (cached)', ['run', 'trivial', '--input', input]),
    node('node + zod, same schemas and input', [plain, input]),
  );
  const build = timePair(
    stratos('stratos build trivial (no-op)', ['build', 'trivial']),
    node('node -e 0', ['-e', '0']),
  );
  const modules = {
    run: countModules(stratos('cached run', ['run', 'trivial', '--input', input])),
    runBaseline: countModules(node('node + zod', [plain, input])),
    build: countModules(stratos('no-op build', ['build', 'trivial'])),
    buildBaseline: countModules(node('node -e 0', ['-e', '0'])),
  };
  const checks = [
    {name: 'cached run', ratio: run.ratio, target: 1.2, pair: run, loads: [modules.run, modules.runBaseline]},
    {
      name: 'no-op build',
      ratio: build.ratio,
      target: 2,
      pair: build,
      loads: [modules.build, modules.buildBaseline],
    },
  ];
  for (const {name, ratio, target, pair, loads} of checks) {
    console.log(`\n${name}`);
    console.log(`  ${formatTiming(pair.measured)}`);
    console.log(`    loads ${formatModules(loads[0]!)}`);
    console.log(`  ${formatTiming(pair.baseline)}`);
    console.log(`    loads ${formatModules(loads[1]!)}`);
    console.log(
      `  ${ratio <= target ? 'PASS' : 'MISS'} median of paired ratios ${ratio.toFixed(2)}x (target at most ${target}x)`,
    );
  }
  const folder = join(repo, 'bench', '.results');
  mkdirSync(folder, {recursive: true});
  const file = join(folder, `cached-run-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const loadAverage = {start: Number(loadAtStart), end: Number(load())};
  console.log(`\nload average (1 min): ${loadAverage.start} at the start, ${loadAverage.end} at the end`);
  writeFileSync(
    file,
    `${JSON.stringify({date: new Date().toISOString(), rounds, loadAverage, modules, run, build}, null, 2)}\n`,
  );
  console.log(`\nresults: ${file}`);
} finally {
  rmSync(base, {recursive: true, force: true});
}
