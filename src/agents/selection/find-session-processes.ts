/**
 * Whether a rejected native session was cleaned up: every process it started (the harness binary, the MCP servers
 * and whatever those started) inherits a marker variable in its environment, and after `close()` none may still
 * carry it. Only then may selection move on to the next candidate. The check reads `/proc/<pid>/environ`, so it
 * sees processes that left the harness's process group too; where there is no `/proc` (macOS) it can only trust
 * `close()`.
 */
import {readdir, readFile} from 'node:fs/promises';
import {randomHex} from '../../internal/random-hex.ts';

/** The environment variable naming a native session; harness environments otherwise carry no STRATOS_ names. */
export const sessionMarkerVariable = 'STRATOS_AGENT_SESSION';

export interface SessionProcess {
  pid: number;
  command: string;
}

/** A fresh marker for one native session. */
export function createSessionMarker(): string {
  return randomHex(8);
}

/**
 * The processes that still carry `marker` once `timeoutMs` has passed (each harness ends its processes on its own
 * schedule after close, Claude Code's SDK within seconds); an empty list as soon as none is left, or where the
 * platform cannot tell.
 */
export async function findSurvivingSessionProcesses(
  marker: string,
  timeoutMs = 15_000,
): Promise<SessionProcess[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await findSessionProcesses(marker);
    if (found.length === 0 || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function findSessionProcesses(marker: string): Promise<SessionProcess[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const needle = `\0${sessionMarkerVariable}=${marker}\0`;
  const found: SessionProcess[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = `\0${await readFile(`/proc/${entry}/environ`, 'utf8')}`;
      if (!environ.includes(needle)) continue;
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ').trim();
      // A zombie has no command line and no environment left: it is gone.
      if (command !== '') found.push({pid: Number(entry), command});
    } catch {
      // The process ended while it was read, or belongs to another user.
    }
  }
  return found;
}
