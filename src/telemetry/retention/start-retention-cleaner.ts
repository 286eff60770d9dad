/** Starts the retention cleaner as a detached process that outlives nobody's wait: the caller never awaits it. */
import {spawn} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import type {RetentionLimits} from './select-removals.ts';

/** The cleaner script beside this module (`.ts` when running from source, `.js` from dist). */
export const cleanerScript = fileURLToPath(
  new URL(`./retention-cleaner${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

/** Returns the cleaner's process id; throws only when the process cannot be spawned at all. */
export function startRetentionCleaner(home: string, limits: RetentionLimits): number | undefined {
  const child = spawn(
    process.execPath,
    [cleanerScript, home, String(limits.perWorkspace), String(limits.total)],
    {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
    },
  );
  child.on('error', () => {});
  child.unref();
  return child.pid;
}
