import type {Diagnostic} from './diagnostic.ts';
import {formatLocation} from './diagnostic.ts';
import {StratosError} from './stratos-error.ts';

/** A workflow build failed; `diagnostics` holds every finding (errors and warnings) with its location. */
export class BuildError extends StratosError {
  readonly diagnostics: Diagnostic[];

  constructor(workflow: string, diagnostics: Diagnostic[], cause?: unknown) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    const lines = errors.map(
      (d) => `  ${d.location === undefined ? '' : `${formatLocation(d.location)}: `}${d.message}`,
    );
    super(
      first?.code ?? 'STRATOS_BUILD_FAILED',
      `Workflow '${workflow}' failed to build (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}):\n${lines.join('\n')}`,
      {cause, location: first?.location, details: {workflow, diagnostics}},
    );
    this.name = 'BuildError';
    this.diagnostics = diagnostics;
  }
}
