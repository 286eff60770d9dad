/** The human-readable lines of run.log: one line per console message, operation end and workflow boundary. */
import {formatLocation} from '../../errors/index.ts';
import type {EventRecord} from './run-record.ts';
import {labelSpan} from './span-label.ts';
import {describeStatus} from './status-words.ts';

export function formatLogLine(record: EventRecord): string | undefined {
  const who = `[${record.workflow} ${record.executionId.slice(0, 8)}]`;
  const prefix = `${record.time} ${who}`;
  switch (record.type) {
    case 'console':
      return indentLines(`${prefix} ${(record.level ?? 'log').padEnd(5)} ${record.message ?? ''}`);
    case 'workflow.start':
      return `${prefix} start workflow ${record.workflow}`;
    case 'workflow.end':
      return `${prefix} end   workflow ${record.workflow}: ${describeStatus(record.status ?? '')}${duration(record)}${failure(record)}`;
    case 'operation.end':
      return `${prefix} ${record.kind} ${labelSpan(record.name ?? '', record.attributes)}: ${describeStatus(record.status ?? '')}${duration(record)}${failure(record)}`;
    case 'event': {
      // An event that carries a human sentence (`log.message`, such as a worktree decision) shows it.
      const message = record.attributes?.['log.message'];
      return `${prefix} event ${record.name}${typeof message === 'string' ? `: ${message}` : ''}`;
    }
    default:
      return undefined;
  }
}

function duration(record: EventRecord): string {
  return record.durationMs === undefined ? '' : ` in ${record.durationMs} ms`;
}

function failure(record: EventRecord): string {
  if (record.error === undefined) return '';
  const where = record.error.location === undefined ? '' : ` at ${formatLocation(record.error.location)}`;
  return ` (${record.error.code ?? record.error.type ?? 'error'}: ${record.error.message}${where})`;
}

/** Continuation lines of a multi-line message are indented so each log entry stays visually one block. */
function indentLines(text: string): string {
  return text.includes('\n') ? text.replace(/\n/g, '\n    ') : text;
}
