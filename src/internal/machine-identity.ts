/**
 * The identity of the machine a run's steps ran on: the host name for people, and an id kept in the Stratos home
 * (`<STRATOS_HOME>/machine-id`, created on first use). A harness's native conversation and a managed worktree live
 * in files of the machine that ran the agent, so a run recovered elsewhere must know where they are
 * (docs/scale-out.md, "Moving a run to another machine"). Two Stratos homes are two machines, even on one host.
 */
import {linkSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {randomHex} from './random-hex.ts';

export interface MachineIdentity {
  /** The host name (`os.hostname()`), for messages. */
  host: string;
  /** The id in the Stratos home: what tells two machines apart. */
  id: string;
}

const fileName = 'machine-id';

/** This machine's identity; creates the id file in `stratosHome` the first time. */
export function readMachineIdentity(stratosHome: string): MachineIdentity {
  const path = join(stratosHome, fileName);
  return {host: hostname(), id: readId(path) ?? createId(path)};
}

function readId(path: string): string | undefined {
  try {
    const id = readFileSync(path, 'utf8').trim();
    return id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}

function createId(path: string): string {
  // Written aside, then linked into place: the link fails when another process created the file first, and no
  // reader ever sees a half-written id. An empty file (truncated by hand) is replaced.
  const id = randomHex(16);
  const aside = `${path}.${randomHex(6)}`;
  writeFileSync(aside, `${id}\n`);
  try {
    linkSync(aside, path);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const existing = readId(path);
    if (existing !== undefined) return existing;
    renameSync(aside, path);
    return id;
  } finally {
    rmSync(aside, {force: true});
  }
}
