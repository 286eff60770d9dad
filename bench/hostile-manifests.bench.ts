// `stratos list` with one hostile workflow among many: 100 ordinary workflows alone, then with
// one manifest of each hostile kind beside them (1 MB of unknown keys just under the size limit, 10 MB of blank
// lines over it, a 2.5 MB agents map over it, YAML nested 5,000 levels deep). Medians of side-by-side real processes;
// the figure that matters is the ratio to the ordinary list. Not part of `npm test`.
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {type Command, formatMs, formatTiming, timeSideBySide} from './measure.ts';

const repo = resolve(import.meta.dirname, '..');
const cli = join(repo, 'bin', 'stratos.js');
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const base = realpathSync(mkdtempSync(join(tmpdir(), 'stratos-bench-hostile-')));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  STRATOS_HOME: join(base, 'home'),
  HOME: join(base, 'os-home'),
  CI: '1',
};
for (const key of Object.keys(env)) if (key.startsWith('STRATOS_') && key !== 'STRATOS_HOME') delete env[key];
mkdirSync(env.HOME!, {recursive: true});

const head = (name: string) =>
  `name: ${name}\nshortDescription: Benchmark workflow ${name}.\nlongDescription: Used by the benchmark.\nversion: "1.0.0"\n`;

const hostile: Record<string, string> = {
  'unknown-keys-1mb': (() => {
    let text = head('unknown-keys-1mb');
    for (let i = 0; text.length < 1_000_000; i++) text += `unknown_key_${i}_${'k'.repeat(60)}: value\n`;
    return text;
  })(),
  'blank-lines-10mb': head('blank-lines-10mb') + '\n'.repeat(10_000_000),
  'agents-2-5mb':
    head('agents-2-5mb') +
    'agents:\n' +
    Array.from({length: 50_000}, (_, i) => `  agent_${i}: {harness: claude-code, model: m}\n`).join(''),
  'deep-5000': `${head('deep-5000')}extra: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
};

function project(name: string, extra?: [string, string]): string {
  const cwd = join(base, name);
  const root = join(cwd, '.stratos', 'workflows');
  for (let i = 0; i < 100; i++) {
    mkdirSync(join(root, `flow-${i}`), {recursive: true});
    writeFileSync(join(root, `flow-${i}`, 'workflow.yaml'), head(`flow-${i}`));
  }
  if (extra !== undefined) {
    mkdirSync(join(root, extra[0]), {recursive: true});
    writeFileSync(join(root, extra[0], 'workflow.yaml'), extra[1]);
  }
  return cwd;
}

const list = (label: string, cwd: string): Command => ({
  label,
  command: process.execPath,
  args: [cli, 'list', '--json'],
  cwd,
  env,
});

try {
  const commands = [
    list('list, 100 ordinary workflows', project('ordinary')),
    ...Object.entries(hostile).map(([name, text]) => list(`list, + ${name}`, project(name, [name, text]))),
  ];
  const timings = timeSideBySide(commands, rounds, 1);
  const baseline = timings[0]!.medianMs;
  for (const timing of timings) {
    console.log(
      `  ${formatTiming(timing)}  (${(timing.medianMs / baseline).toFixed(2)}x, +${formatMs(timing.medianMs - baseline)})`,
    );
  }
} finally {
  rmSync(base, {recursive: true, force: true});
}
