import {type Diagnostic, formatLocation} from '../../errors/index.ts';
import type {Style} from './style.ts';

/** `file:line:col: warning CODE: message`, the shape editors and agents already parse. */
export function formatDiagnostic(
  diagnostic: Diagnostic,
  paint: (text: string, style: Style) => string,
): string {
  const where = diagnostic.location === undefined ? '' : `${formatLocation(diagnostic.location)}: `;
  const severity = diagnostic.severity === 'error' ? paint('error', 'red') : paint('warning', 'yellow');
  return `${where}${severity} ${diagnostic.code}: ${diagnostic.message}`;
}
