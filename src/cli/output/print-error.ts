/** The readable form of an error: code and message, source location, then the "Caused by:" chain. */
import {formatLocation, type StratosError, visibleCauses} from '../../errors/index.ts';
import {causeChain} from './envelope.ts';
import type {Style} from './style.ts';

/**
 * `shown`: what the command printed before the error (its readable output); a location it already names is not
 * printed again.
 */
export function formatError(
  error: StratosError,
  paint: (text: string, style: Style) => string,
  shown = '',
): string {
  const lines = [`${paint('error', 'red')} ${paint(error.code, 'bold')}: ${error.message}`];
  const where = error.location === undefined ? undefined : formatLocation(error.location);
  if (where !== undefined && !error.message.includes(where) && !shown.includes(where)) {
    lines.push(`  at ${where}`);
  }
  for (const cause of visibleCauses(error.message, causeChain(error))) {
    lines.push(`Caused by: ${[cause.code, cause.message].filter((part) => part).join(': ')}`);
  }
  // `stratos run --verbose`: the full stack, mapped to the authored files.
  const stack = error.details?.stack;
  if (typeof stack === 'string') lines.push(paint(stack, 'dim'));
  return `${lines.join('\n')}\n`;
}
