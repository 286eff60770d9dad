/**
 * DBOS's log lines, routed to the caller instead of the console: library code never prints, and the CLI's stdout
 * stays one envelope in `--json` mode. Debug and info lines are dropped; warnings and errors reach `log`.
 */
import type {DLogger} from '@dbos-inc/dbos-sdk';
import {redactCredentialSecrets} from '../errors/index.ts';

/** Where the engine's warnings go (the worker prints them on stderr). */
export type EngineLog = (level: 'warn' | 'error', message: string) => void;

export function createDbosLogger(log: EngineLog | undefined): DLogger {
  const send = (level: 'warn' | 'error', entry: unknown) => {
    if (log === undefined) return;
    const text =
      entry instanceof Error ? entry.message : typeof entry === 'string' ? entry : JSON.stringify(entry);
    log(level, redactCredentialSecrets(text));
  };
  return {
    info: () => {},
    debug: () => {},
    warn: (entry) => send('warn', entry),
    error: (entry) => send('error', entry),
  };
}
