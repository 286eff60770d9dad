// Real Git repositories for worktree tests: an isolated git configuration (no real home), a repository with a
// first commit, and optionally a clone whose refs/remotes/origin/HEAD is cached locally.
import {execFileSync} from 'node:child_process';
import {rmSync} from 'node:fs';
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';

export interface TempRepo {
  base: string;
  /** The working repository (a clone when `withOrigin`). */
  root: string;
  /** STRATOS_HOME for bookkeeping. */
  home: string;
  git(args: readonly string[], cwd?: string): string;
  write(path: string, content: string, cwd?: string): Promise<void>;
  /** Writes, adds and commits one file; returns the commit. */
  commit(path: string, content: string, message: string, cwd?: string): Promise<string>;
  remove(): Promise<void>;
}

let isolated: Promise<void> | undefined;

/**
 * Points every git call of this test process (the tests' and Stratos's own) at a configuration of its own:
 * identity set, the real global and system configuration ignored.
 */
export function isolateGit(): Promise<void> {
  isolated ??= writeGitConfig();
  return isolated;
}

async function writeGitConfig(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'stratos-gitconfig-'));
  process.on('exit', () => rmSync(folder, {recursive: true, force: true}));
  const config = join(folder, 'gitconfig');
  await writeFile(
    config,
    '[user]\n\tname = Stratos Test\n\temail = test@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n',
  );
  process.env.GIT_CONFIG_GLOBAL = config;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
}

export async function createTempRepo(options: {withOrigin?: boolean} = {}): Promise<TempRepo> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'stratos-worktrees-')));
  await isolateGit();
  const git = (args: readonly string[], cwd = root) =>
    execFileSync('git', [...args], {
      cwd,
      encoding: 'utf8',
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const upstream = join(base, options.withOrigin ? 'upstream' : 'repo');
  await mkdir(upstream, {recursive: true});
  let root = upstream;
  git(['init', '-q', '-b', 'main'], upstream);
  const write = async (path: string, content: string, cwd = root) => {
    await mkdir(dirname(join(cwd, path)), {recursive: true});
    await writeFile(join(cwd, path), content);
  };
  const commit = async (path: string, content: string, message: string, cwd = root) => {
    await write(path, content, cwd);
    git(['add', '--', path], cwd);
    git(['commit', '-q', '-m', message], cwd);
    return git(['rev-parse', 'HEAD'], cwd).trim();
  };
  await commit('README.md', '# test\n', 'first', upstream);
  if (options.withOrigin) {
    root = join(base, 'repo');
    git(['clone', '-q', upstream, root], base);
  }
  const home = join(base, 'home');
  await mkdir(home, {recursive: true});
  return {base, root, home, git, write, commit, remove: () => rm(base, {recursive: true, force: true})};
}
