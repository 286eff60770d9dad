/**
 * Workflow code logs with ordinary `console` methods. Node 24 publishes every `console.log/info/debug/warn/error`
 * call (and `console.trace`, `console.table` through them) on the `console.<method>` diagnostics channels before
 * writing; Stratos subscribes instead of replacing console functions. The arguments are formatted at once, in
 * the caller's synchronous frame, so later mutation of a logged object cannot change the record. `console.dir`
 * and raw `process.stdout.write` publish nothing and are not captured.
 */
import {subscribe} from 'node:diagnostics_channel';
import {formatWithOptions} from 'node:util';
import {recordingScope} from './recording-scope.ts';

export const consoleChannels = ['log', 'info', 'debug', 'warn', 'error'] as const;

let installed = false;

/** Subscribes once per process; a message outside any recorded workflow is ignored. */
export function installConsoleCapture(): void {
  if (installed) return;
  installed = true;
  for (const level of consoleChannels) {
    subscribe(`console.${level}`, (message) => {
      const scope = recordingScope.getStore();
      if (scope === undefined) return;
      try {
        const args = Array.isArray(message) ? message : [message];
        scope.owner.recordConsole(level, formatWithOptions({colors: false}, ...args), scope.span);
      } catch {
        // A failing record must never break the workflow's own console call.
      }
    });
  }
}
