/** The readable form of an error: code and message, source location, then the "Caused by:" chain. */
import {formatLocation, type StratosError} from '../../errors/index.ts';
import {causeChain} from './envelope.ts';
import type {Style} from './style.ts';

export function formatError(error: StratosError, paint: (text: string, style: Style) => string): string {
  const lines = [`${paint('error', 'red')} ${paint(error.code, 'bold')}: ${error.message}`];
  if (error.location !== undefined && !error.message.includes(formatLocation(error.location))) {
    lines.push(`  at ${formatLocation(error.location)}`);
  }
  for (const cause of causeChain(error)) {
    lines.push(`Caused by: ${cause.code === undefined ? '' : `${cause.code}: `}${cause.message}`);
  }
  return `${lines.join('\n')}\n`;
}
