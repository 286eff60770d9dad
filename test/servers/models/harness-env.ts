/**
 * Isolated homes and environments for running the real claude and codex binaries in tests, and a process scan
 * proving that none outlives its run. Every process started for a test carries HARNESS_TEST_MARKER (not a STRATOS_ name: those are kept from harness processes) in its
 * environment; `findMarkedProcesses` reads /proc/<pid>/environ to find survivors.
 */
import {randomBytes} from 'node:crypto';
import {mkdir, readdir, readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {pollUntil} from '../../helpers/wait-for.ts';

export interface HarnessHome {
  base: string;
  marker: string;
  /** The explicit environment for the CLI: homes, temp dirs, no outbound traffic, Node 24 first on PATH. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

/** Outside /tmp: Codex needs CODEX_HOME there, and Claude's temp files stay inside this folder. */
const root = '/var/tmp/stratos-agent-tests';

/** `xdg`: XDG config, data, cache and state folders of the home's own, for OpenCode (which reads them). */
export async function createHarnessHome(
  model: {anthropicUrl?: string; openaiUrl?: string},
  options: {xdg?: boolean} = {},
): Promise<HarnessHome> {
  const marker = randomBytes(6).toString('hex');
  const base = join(root, marker);
  const dirs = {
    home: join(base, 'os-home'),
    claude: join(base, 'claude'),
    codex: join(base, 'codex'),
    tmp: join(base, 'tmp'),
  };
  const xdg: Record<string, string> =
    options.xdg === true
      ? {
          XDG_CONFIG_HOME: join(base, 'xdg-config'),
          XDG_DATA_HOME: join(base, 'xdg-data'),
          XDG_CACHE_HOME: join(base, 'xdg-cache'),
          XDG_STATE_HOME: join(base, 'xdg-state'),
        }
      : {};
  for (const dir of [...Object.values(dirs), ...Object.values(xdg)]) await mkdir(dir, {recursive: true});
  const env: Record<string, string> = {
    PATH: `${join(process.cwd(), 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    CLAUDE_CONFIG_DIR: dirs.claude,
    CLAUDE_CODE_TMPDIR: dirs.tmp,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CODEX_HOME: dirs.codex,
    HARNESS_TEST_MARKER: marker,
    CI: '1',
    ...xdg,
  };
  // The scripted server itself, for test workflows that wait for a request to be in flight (`/__test/open-streams`).
  const modelServer = model.anthropicUrl ?? model.openaiUrl;
  if (modelServer !== undefined) env.STRATOS_TEST_MODEL_SERVER = modelServer;
  if (model.anthropicUrl !== undefined) {
    env.ANTHROPIC_BASE_URL = model.anthropicUrl;
    env.ANTHROPIC_API_KEY = 'sk-ant-test';
  }
  if (model.openaiUrl !== undefined) {
    env.OPENAI_BASE_URL = `${model.openaiUrl}/v1`;
    env.OPENAI_API_KEY = 'sk-openai-test';
  }
  return {base, marker, env, remove: () => rm(base, {recursive: true, force: true})};
}

/** Processes (pid and command line) whose environment carries the marker. */
export async function findMarkedProcesses(marker: string): Promise<{pid: number; command: string}[]> {
  const found: {pid: number; command: string}[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, 'utf8');
      if (!environ.includes(`HARNESS_TEST_MARKER=${marker}`)) continue;
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ').trim();
      found.push({pid: Number(entry), command});
    } catch {
      // The process ended while we looked, or is not ours.
    }
  }
  return found;
}

/** Waits briefly for marked processes to go (exit is asynchronous), then returns the survivors. */
export async function survivingProcesses(
  marker: string,
  waitMs = 2000,
): Promise<{pid: number; command: string}[]> {
  let found: {pid: number; command: string}[] = [];
  await pollUntil(
    async () => {
      found = await findMarkedProcesses(marker);
      return found.length === 0;
    },
    {timeoutMs: waitMs, intervalMs: 100},
  );
  return found;
}
