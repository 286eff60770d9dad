/**
 * What a queued run carries from the machine that enqueued it to the worker that runs it, and what comes back.
 * Paths are relative to the repository, so any clone of it can run the run (docs/scale-out.md).
 */
import {packageVersion} from '../internal/package-info.ts';
import type {RepositoryIdentity} from './repository-identity.ts';

/** The one DBOS workflow every queued run is: the Stratos pipeline around the named workflow. */
export const QUEUED_RUN_WORKFLOW = 'stratos-run';
/** The DBOS application that owns Stratos's queues and runs in a shared database. */
export const ENGINE_APPLICATION = 'stratos';

/**
 * The DBOS application version of this Stratos: workers take (and recover) only runs enqueued by the same version,
 * because the pipeline that replays a run's steps must be the one that recorded them.
 */
export function engineVersion(): string {
  return `stratos-${packageVersion()}`;
}

export interface QueuedRunRequest {
  /** The shape of this object; a worker refuses one it does not know. */
  format: 1;
  repository: RepositoryIdentity;
  /** The workflow's name (its folder under the discovery root). */
  workflow: string;
  /** The discovery root, relative to the repository's top folder (`/` separators). */
  root: string;
  /** The workflow's folder, relative to the discovery root. */
  folder: string;
  /** The invoking directory, relative to the repository's top folder (`''` for the top folder). */
  directory: string;
  /** The input as given, `overrides` included. */
  input: unknown;
  enqueuedAt: string;
}

/** A queued run's outcome: the facts of a local run's envelope, plus the worker that ran it. */
export interface QueuedRunResult {
  ok: boolean;
  executionId?: string;
  workflow: string;
  startedAt: string;
  durationMs: number;
  /** The run folder on the worker's machine. */
  runDirectory?: string;
  output?: Record<string, unknown>;
  error?: {code: string; message: string; details?: Record<string, unknown>; location?: unknown};
  warnings: {code: string; severity: 'warning'; message: string}[];
  worker: string;
}
