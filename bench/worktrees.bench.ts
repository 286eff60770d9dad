// Worktree overhead (docs/performance.md): one acquire and release of a clean named worktree by Stratos (record,
// OS locks, reconciliation sweep, the safety checks of cleanup) against the bare `git worktree add -b` and
// `git worktree remove` it wraps, in one small repository. Medians of alternating rounds; the ratio is the figure.
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {acquireWorktree} from '../src/worktrees/acquire-worktree.ts';
import {cleanUpWorktree} from '../src/worktrees/clean-up-worktree.ts';
import {formatTiming, summarize} from './measure.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const base = realpathSync(mkdtempSync(join(tmpdir(), 'stratos-bench-worktrees-')));
const config = join(base, 'gitconfig');
writeFileSync(config, '[user]\n\tname = Bench\n\temail = bench@example.invalid\n');
process.env.GIT_CONFIG_GLOBAL = config;
process.env.GIT_CONFIG_NOSYSTEM = '1';
const repo = join(base, 'repo');
const home = join(base, 'home');
mkdirSync(repo);
const git = (args: string[]) => execFileSync('git', args, {cwd: repo, stdio: 'ignore'});
git(['init', '-q', '-b', 'main']);
for (let i = 0; i < 50; i++) writeFileSync(join(repo, `file-${i}.txt`), `${i}\n`.repeat(100));
git(['add', '.']);
git(['commit', '-q', '-m', 'files']);

async function stratosRound(index: number): Promise<number> {
  const started = performance.now();
  const name = `bench-${index}`;
  await acquireWorktree({
    stratosHome: home,
    directory: repo,
    agent: 'bench',
    name,
    cleanup: true,
    runId: `r${index}`,
  });
  const decision = await cleanUpWorktree({stratosHome: home, repository: repo, name, runId: `r${index}`});
  if (decision.action !== 'removed') throw new Error(decision.message);
  return performance.now() - started;
}

function gitRound(index: number): number {
  const started = performance.now();
  const path = join(repo, '.stratos', 'worktrees', `plain-${index}`);
  git(['worktree', 'add', '-q', '-b', `plain/${index}`, path, 'HEAD']);
  git(['worktree', 'remove', path]);
  return performance.now() - started;
}

try {
  const stratos: number[] = [];
  const plain: number[] = [];
  for (let round = -2; round < rounds; round++) {
    const s = await stratosRound(round + 2);
    const p = gitRound(round + 2);
    if (round >= 0) {
      stratos.push(s);
      plain.push(p);
    }
  }
  const a = summarize('Stratos acquire + release (clean)', stratos);
  const b = summarize('git worktree add + remove', plain);
  console.log(formatTiming(a));
  console.log(formatTiming(b));
  console.log(`ratio (median): ${(a.medianMs / b.medianMs).toFixed(2)}x`);
} finally {
  rmSync(base, {recursive: true, force: true});
}
