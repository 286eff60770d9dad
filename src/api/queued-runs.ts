/**
 * `stratos run --queue`, `stratos runs list --queue` and `stratos runs show` of a queued run: the engine's
 * database seen from the machine that enqueues (docs/scale-out.md). The engine loads only here.
 */
import {relative, sep} from 'node:path';
import type {QueuedRunRecord} from '../engine/engine-client.ts';
import type {QueuedRunRequest, QueuedRunResult} from '../engine/queued-run.ts';
import {StratosError} from '../errors/index.ts';
import {requireEngine, resolveQueue} from './engine-host.ts';
import {findWorkflow, type HostOptions, resolveHost} from './host.ts';

export type {QueuedRunRecord, QueuedRunResult};

export interface EnqueueRunOptions extends HostOptions {
  /** The queue's name; `default` when empty or absent. */
  queue?: string;
  /** Wait for the run to end and return its result. */
  wait?: boolean;
  signal?: AbortSignal;
}

export interface EnqueueRunResult {
  runId: string;
  queue: string;
  workflow: string;
  /** With `wait`: what the worker returned. */
  result?: QueuedRunResult;
}

/**
 * Enqueues a run of `target` for a worker that holds the same repository.
 * @throws StratosError STRATOS_ENGINE_NOT_CONFIGURED, STRATOS_QUEUE_UNKNOWN, STRATOS_QUEUE_NOT_IN_REPOSITORY,
 *   STRATOS_ENGINE_PACKAGE_MISSING, STRATOS_ENGINE_DATABASE_FAILED, STRATOS_QUEUE_RUN_FAILED, and the
 *   resolution errors of a local run.
 */
export async function enqueueRun(
  target: string,
  input: unknown,
  options: EnqueueRunOptions = {},
): Promise<EnqueueRunResult> {
  const host = resolveHost(options);
  const engine = await requireEngine(host, `stratos run --queue`);
  const queue = resolveQueue(engine.settings, options.queue);
  const handle = await findWorkflow(host, target);
  const {requireCheckout} = await import('../engine/repository-identity.ts');
  const checkout = await requireCheckout(host.cwd, 'A queued run');
  const inside = (path: string) => {
    const rel = relative(checkout.root, path);
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel))
      ? rel
      : undefined;
  };
  const root = inside(handle.root.directory);
  const directory = inside(host.cwd);
  const folder = relative(handle.root.directory, handle.directory);
  if (root === undefined || directory === undefined) {
    throw new StratosError(
      'STRATOS_QUEUE_NOT_IN_REPOSITORY',
      `Workflow '${handle.name}' lives in ${handle.root.directory}, outside the repository ${checkout.root}; a worker can only run workflows committed to the repository. Move it into the repository's .stratos/workflows, or run it locally without --queue.`,
      {details: {workflow: handle.name, root: handle.root.directory, repository: checkout.root}},
    );
  }
  const request: QueuedRunRequest = {
    format: 1,
    repository: checkout.identity,
    workflow: handle.name,
    root: toPosix(root),
    folder: toPosix(folder),
    directory: toPosix(directory),
    input,
    enqueuedAt: new Date().toISOString(),
  };
  const {openEngineClient} = await import('../engine/engine-client.ts');
  const client = await openEngineClient(engine.databaseUrl);
  try {
    const runId = await client.enqueue(queue, request);
    if (options.wait !== true) return {runId, queue, workflow: handle.name};
    const result = await client.waitForResult(runId, options.signal).catch((error: unknown) => {
      if (options.signal?.aborted === true) throw options.signal.reason;
      throw new StratosError(
        'STRATOS_QUEUE_RUN_FAILED',
        `Queued run ${runId} of '${handle.name}' ended without a result: ${error instanceof Error ? error.message : String(error)}. Run 'stratos runs show ${runId}' for its state.`,
        {cause: error, details: {runId, queue}},
      );
    });
    return {runId, queue, workflow: handle.name, result};
  } finally {
    await client.close();
  }
}

export interface ListQueuedRunsOptions extends HostOptions {
  /** Only this queue's runs; every queue's when absent. */
  queue?: string;
  limit?: number;
}

/** Queued, running and finished runs in the engine's database, newest first. */
export async function listQueuedRuns(options: ListQueuedRunsOptions = {}): Promise<QueuedRunRecord[]> {
  const host = resolveHost(options);
  const engine = await requireEngine(host, 'stratos runs list --queue');
  const {openEngineClient} = await import('../engine/engine-client.ts');
  const client = await openEngineClient(engine.databaseUrl);
  try {
    return await client.list({
      ...(options.queue === undefined ? {} : {queue: options.queue}),
      limit: options.limit ?? 20,
    });
  } finally {
    await client.close();
  }
}

/**
 * One run of the engine's database, or undefined when it holds none with this id (or no engine is configured:
 * `runs show` then looks only at local runs).
 */
export async function findQueuedRun(
  runId: string,
  options: HostOptions = {},
): Promise<QueuedRunRecord | undefined> {
  const host = resolveHost(options);
  const {readEngineSettings} = await import('../config/engine-settings.ts');
  if (readEngineSettings(host.home, host.env) === undefined) return undefined;
  const engine = await requireEngine(host, 'stratos runs show');
  const {openEngineClient} = await import('../engine/engine-client.ts');
  const client = await openEngineClient(engine.databaseUrl);
  try {
    return await client.get(runId);
  } finally {
    await client.close();
  }
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
