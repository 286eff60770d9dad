// The foundation benchmarks (docs/performance.md): run overhead over plain Node, list over 200 workflows, a no-op
// build, and a cold build against TypeScript 5.9's tsc. Every figure is a median of repeated side-by-side runs of
// real processes, because the machine is shared and noisy. Writes bench/.results/foundation-<time>.json too.
import {spawnSync} from 'node:child_process';
import {cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {cpus, release, tmpdir, totalmem} from 'node:os';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {type Command, formatMs, formatTiming, type Timing, timeOnce, timeSideBySide} from './measure.ts';

const repo = resolve(import.meta.dirname, '..');
const cli = join(repo, 'bin', 'stratos.js');
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const base = realpathSync(mkdtempSync(join(tmpdir(), 'stratos-bench-')));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  STRATOS_HOME: join(base, 'home'),
  HOME: join(base, 'os-home'),
  CI: '1',
};
for (const key of Object.keys(env)) if (key.startsWith('STRATOS_') && key !== 'STRATOS_HOME') delete env[key];
mkdirSync(env.HOME!, {recursive: true});

const {compilerFlags} = (await import(pathToFileURL(join(repo, 'dist', 'builder', 'index.js')).href)) as {
  compilerFlags: readonly string[];
};

function project(name: string): {cwd: string; root: string} {
  const cwd = join(base, name);
  const root = join(cwd, '.stratos', 'workflows');
  mkdirSync(root, {recursive: true});
  return {cwd, root};
}

/** Copies the authored files of the example only: a build made elsewhere must not come along. */
function copyExample(to: string): void {
  const from = join(repo, 'examples', 'pr-review');
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !/[\\/](dist|generated|node_modules)$/.test(source),
  });
}

function stratos(label: string, cwd: string, args: string[], before?: () => void): Command {
  return {label, command: process.execPath, args: [cli, ...args], cwd, env, ...(before ? {before} : {})};
}

function check(name: string, pass: boolean, detail: string): {name: string; pass: boolean; detail: string} {
  console.log(`  ${pass ? 'PASS' : 'MISS'} ${name}: ${detail}`);
  return {name, pass, detail};
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model,
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${process.platform} ${release()}`,
    node: process.version,
  },
  rounds,
};
const checks: ReturnType<typeof check>[] = [];
console.log(`machine: ${JSON.stringify(results.machine)}; ${rounds} rounds; temp ${base}`);

try {
  // (a) run of a cached build vs node importing the same compiled module and calling its run.
  const one = project('one');
  copyExample(join(one.root, 'pr-review'));
  timeOnce(stratos('first build', one.cwd, ['build', 'pr-review']));
  const record = JSON.parse(
    readFileSync(join(one.root, 'pr-review', 'dist', '.stratos-build.json'), 'utf8'),
  ) as {compiledEntrypoint: string};
  const direct = join(one.cwd, 'direct.mjs');
  writeFileSync(
    direct,
    [
      'const {default: definition} = await import(process.argv[2]);',
      'const output = await definition.run(JSON.parse(process.argv[3]));',
      "process.stdout.write(JSON.stringify(output) + '\\n');",
      '',
    ].join('\n'),
  );
  const input = '{"repo":"org/repo","pr_number":42}';
  const empty = join(one.cwd, 'empty.mjs');
  writeFileSync(empty, '');
  const [nodeStart, nodeRun, stratosRun, stratosRunJson] = timeSideBySide(
    [
      {label: 'node, empty script', command: process.execPath, args: [empty], cwd: one.cwd, env},
      {
        label: 'node, import + run',
        command: process.execPath,
        args: [direct, pathToFileURL(record.compiledEntrypoint).href, input],
        cwd: one.cwd,
        env,
      },
      stratos('stratos run (cached)', one.cwd, ['run', 'pr-review', '--input', input]),
      stratos('stratos run --json (cached)', one.cwd, ['run', 'pr-review', '--input', input, '--json']),
    ],
    rounds,
  ) as [Timing, Timing, Timing, Timing];
  console.log('\n(a) run of a cached build');
  for (const t of [nodeStart, nodeRun, stratosRun, stratosRunJson]) console.log(`  ${formatTiming(t)}`);
  const ratio = stratosRun.medianMs / nodeRun.medianMs;
  const added = stratosRun.medianMs - nodeRun.medianMs;
  checks.push(
    check(
      'run overhead',
      ratio <= 1.5 && added < 150,
      `${ratio.toFixed(2)}x and ${formatMs(added)} added (target: at most 1.5x and under 150 ms)`,
    ),
  );
  results.run = {nodeStart, nodeRun, stratosRun, stratosRunJson, ratio, addedMs: added};

  // (c) a no-op build of an up-to-date workflow.
  const [noopBuild] = timeSideBySide(
    [stratos('stratos build (up to date)', one.cwd, ['build', 'pr-review'])],
    rounds,
  );
  console.log('\n(c) no-op build');
  console.log(`  ${formatTiming(noopBuild!)}`);
  checks.push(
    check('no-op build', noopBuild!.medianMs < 300, `${formatMs(noopBuild!.medianMs)} (target < 300 ms)`),
  );
  results.noopBuild = noopBuild;

  // (d) a cold build vs TypeScript 5.9's tsc (and the TypeScript 7 compiler Stratos drives) on the same files.
  const ts59 = join(base, 'ts59');
  mkdirSync(ts59, {recursive: true});
  writeFileSync(join(ts59, 'package.json'), '{"private": true}\n');
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error', 'typescript@5.9'],
    {cwd: ts59, env: {...env, HOME: process.env.HOME}, encoding: 'utf8'},
  );
  if (install.status !== 0) throw new Error(`npm install typescript@5.9 failed:\n${install.stderr}`);
  const ts59Version = (
    JSON.parse(readFileSync(join(ts59, 'node_modules', 'typescript', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const dist = join(one.root, 'pr-review', 'dist');
  const entry = join(one.root, 'pr-review', 'workflow.ts');
  const tscArgs = (outDir: string) => [...compilerFlags, '--rootDir', one.root, '--outDir', outDir, entry];
  const ts59Flags = (outDir: string) => tscArgs(outDir).filter((flag) => flag !== '--ignoreConfig');
  const ts7 = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const out59 = join(base, 'out-ts59');
  const out7 = join(base, 'out-ts7');
  const [coldBuild, tsc59, tsc7] = timeSideBySide(
    [
      stratos('stratos build (cold: no dist)', one.cwd, ['build', 'pr-review'], () =>
        rmSync(dist, {recursive: true, force: true}),
      ),
      {
        label: `tsc ${ts59Version} (same flags and files)`,
        command: process.execPath,
        args: [join(ts59, 'node_modules', 'typescript', 'bin', 'tsc'), ...ts59Flags(out59)],
        cwd: one.root,
        env,
        before: () => rmSync(out59, {recursive: true, force: true}),
      },
      {
        label: 'tsc 7 (the compiler Stratos runs)',
        command: process.execPath,
        args: [ts7, ...tscArgs(out7)],
        cwd: one.root,
        env,
        before: () => rmSync(out7, {recursive: true, force: true}),
      },
    ],
    Math.max(5, Math.round(rounds / 2)),
    1,
  ) as [Timing, Timing, Timing];
  console.log('\n(d) cold build');
  for (const t of [coldBuild, tsc59, tsc7]) console.log(`  ${formatTiming(t)}`);
  checks.push(
    check(
      'cold build vs tsc 5.9',
      coldBuild.medianMs < tsc59.medianMs,
      `${formatMs(coldBuild.medianMs)} vs ${formatMs(tsc59.medianMs)} (${(coldBuild.medianMs / tsc59.medianMs).toFixed(2)}x)`,
    ),
  );
  results.coldBuild = {coldBuild, tsc59, tsc7, ts59Version};

  // (b) list over a root of 200 built workflows (freshness of each is checked: its files are hashed).
  const many = project('many');
  const yaml = readFileSync(join(repo, 'examples', 'pr-review', 'workflow.yaml'), 'utf8');
  for (let i = 1; i <= 200; i++) {
    const name = `review-${String(i).padStart(3, '0')}`;
    copyExample(join(many.root, name));
    writeFileSync(join(many.root, name, 'workflow.yaml'), yaml.replace('name: pr-review', `name: ${name}`));
  }
  const [listAbsent] = timeSideBySide(
    [stratos('stratos list (200, never built)', many.cwd, ['list'])],
    rounds,
    1,
  );
  const buildAll = timeOnce(stratos('stratos build (200 workflows)', many.cwd, ['build']));
  const [listFresh, listJson] = timeSideBySide(
    [
      stratos('stratos list (200, built)', many.cwd, ['list']),
      stratos('stratos list --json (200, built)', many.cwd, ['list', '--json']),
    ],
    rounds,
    1,
  ) as [Timing, Timing];
  console.log('\n(b) list over 200 workflows');
  for (const t of [listAbsent!, listFresh, listJson]) console.log(`  ${formatTiming(t)}`);
  console.log(`  (building all 200 once took ${formatMs(buildAll)})`);
  checks.push(
    check('list of 200', listFresh.medianMs < 500, `${formatMs(listFresh.medianMs)} (target < 500 ms)`),
  );
  results.list = {listAbsent, listFresh, listJson, buildAllMs: buildAll};
  results.checks = checks;

  const folder = join(repo, 'bench', '.results');
  mkdirSync(folder, {recursive: true});
  const file = join(folder, `foundation-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: ${file}`);
} finally {
  rmSync(base, {recursive: true, force: true});
}
