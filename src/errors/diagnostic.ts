/** A build or validation finding: errors stop the operation, warnings are reported and do not. */
import type {ErrorCode} from './codes.ts';
import type {SourceLocation} from './stratos-error.ts';

export interface Diagnostic {
  code: ErrorCode;
  severity: 'error' | 'warning';
  message: string;
  location?: SourceLocation;
  /** The schema field or manifest field the finding is about, as a dotted path (`steps[0].id`). */
  path?: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** `file:line:column` (or the parts that are known). */
export function formatLocation(location: SourceLocation): string {
  let text = location.file;
  if (location.line !== undefined) {
    text += `:${location.line}`;
    if (location.column !== undefined) text += `:${location.column}`;
  }
  return text;
}
