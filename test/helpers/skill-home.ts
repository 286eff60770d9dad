// A temporary user home for `stratos skill` tests: its own HOME, STRATOS_HOME and agent config variables unset,
// so agents' skills folders resolve inside it. Real symlinks, real CLI subprocesses.

import {spawn} from 'node:child_process';
import {lstat, mkdtemp, readFile, readlink, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {type CliResult, cleanEnv, runCli} from './run-cli.ts';

/** The repository's bundled skill directory: what the CLI under test links to. */
export const repoSkill = fileURLToPath(new URL('../../skills/stratos-workflows', import.meta.url));

export interface SkillHome {
  base: string;
  /** HOME for the CLI. */
  home: string;
  stratosHome: string;
  env: Record<string, string>;
  /** Skill link paths of the default folders under `home`. */
  paths: {'claude-code': string; codex: string; opencode: string};
  cli(args: readonly string[], options?: {env?: Record<string, string>; bin?: string}): Promise<CliResult>;
  records(): Promise<{version: number; links: {agent: string; path: string; target: string}[]} | undefined>;
  remove(): Promise<void>;
}

export async function createSkillHome(prefix = 'stratos-skill-'): Promise<SkillHome> {
  const base = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const home = join(base, 'home');
  const stratosHome = join(base, 'stratos-home');
  // Empty values count as unset for Stratos, so the developer's own CLAUDE_CONFIG_DIR or XDG_CONFIG_HOME never leaks in.
  const env = {HOME: home, STRATOS_HOME: stratosHome, CLAUDE_CONFIG_DIR: '', XDG_CONFIG_HOME: '', CI: '1'};
  const skill = 'stratos-workflows';
  return {
    base,
    home,
    stratosHome,
    env,
    paths: {
      'claude-code': join(home, '.claude', 'skills', skill),
      codex: join(home, '.agents', 'skills', skill),
      opencode: join(home, '.config', 'opencode', 'skills', skill),
    },
    cli: (args, options = {}) =>
      options.bin === undefined
        ? runCli(args, {cwd: base, env: {...env, ...options.env}})
        : runBin(options.bin, args, {cwd: base, env: {...env, ...options.env}}),
    async records() {
      try {
        return JSON.parse(await readFile(join(stratosHome, 'skill-links.json'), 'utf8'));
      } catch {
        return undefined;
      }
    },
    remove: () => rm(base, {recursive: true, force: true}),
  };
}

/** What is at `path`: the link text of a symlink, 'directory', 'file' or undefined. */
export async function entryAt(path: string): Promise<string | undefined> {
  try {
    const s = await lstat(path);
    if (s.isSymbolicLink()) return `-> ${await readlink(path)}`;
    return s.isDirectory() ? 'directory' : 'file';
  } catch {
    return undefined;
  }
}

/** Runs another copy of the CLI (`<copy>/bin/stratos.js`) the way runCli runs the repository's. */
function runBin(
  bin: string,
  args: readonly string[],
  options: {cwd: string; env: NodeJS.ProcessEnv},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: {...cleanEnv(), ...options.env},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('close', (exitCode) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({exitCode, stdout, stderr, json});
    });
  });
}
