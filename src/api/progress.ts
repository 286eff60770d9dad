import type {BuildProgress} from '../build/index.ts';

export interface ProgressOptions {
  /** Called at the start of each long step (dependency install, compile); the CLI shows it on a terminal. */
  onProgress?: (progress: BuildProgress) => void;
  /** Called with notices the person at the terminal must act on (a sign-in URL); the CLI always shows them. */
  onNotice?: (message: string) => void;
}
