import type {BuildProgress} from '../builder/build-workflow.ts';
import type {Diagnostic} from '../errors/index.ts';

export interface ProgressOptions {
  /** Called at the start of each long step (dependency install, compile); the CLI shows it on a terminal. */
  onProgress?: (progress: BuildProgress) => void;
  /** Called with notices the person at the terminal must act on (a sign-in URL); the CLI always shows them. */
  onNotice?: (message: string) => void;
  /** Cancels the long steps that can be cancelled (MCP discovery); SIGINT at the CLI. */
  signal?: AbortSignal;
}

export function progressOption(options: ProgressOptions): {
  onProgress?: NonNullable<ProgressOptions['onProgress']>;
  onNotice?: NonNullable<ProgressOptions['onNotice']>;
  signal?: AbortSignal;
} {
  return {
    ...(options.onProgress === undefined ? {} : {onProgress: options.onProgress}),
    ...(options.onNotice === undefined ? {} : {onNotice: options.onNotice}),
    ...(options.signal === undefined ? {} : {signal: options.signal}),
  };
}

export function warningsOf(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'warning');
}
