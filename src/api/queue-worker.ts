/**
 * `stratos worker`: runs queued runs of one queue on this machine, each through `runWorkflow` (the pipeline of a
 * local run: build when stale, local artifacts, trace export as configured), inside the checkout of the run's
 * repository that the worker was started in (docs/scale-out.md).
 */
import {hostname} from 'node:os';
import {join} from 'node:path';
import {createJournalSeam} from '../context/journal-seam.ts';
import type {JournalStore} from '../context/step-journal.ts';
import type {QueuedRunRequest, QueuedRunResult} from '../engine/queued-run.ts';
import type {Checkout} from '../engine/repository-identity.ts';
import type {WorkerReport} from '../engine/run-worker.ts';
import {isStratosError, redactCredentialSecrets, StratosError} from '../errors/index.ts';
import {sha256Hex} from '../internal/hash.ts';
import {type MachineIdentity, readMachineIdentity} from '../internal/machine-identity.ts';
import {requireEngine, resolveQueue} from './engine-host.ts';
import {type HostOptions, resolveHost} from './host.ts';
import {runWorkflow} from './run-workflow.ts';
import {holdWorkerLock} from './worker-lock.ts';

export type {WorkerReport};

export interface StartWorkerOptions extends HostOptions {
  queue?: string;
  /** Runs of the queue at once on each worker. */
  concurrency?: number;
  /** The worker's id; default derived from the host name, the checkout, the Stratos home and the queue. */
  id?: string;
  /** First abort: stop taking runs and let running ones end. */
  signal: AbortSignal;
  /** The engine's warnings (stderr). */
  onLog?: (level: 'warn' | 'error', message: string) => void;
  onReady?: (worker: {id: string; queue: string; repository: string}) => void;
  onRun?: (event: {runId: string; phase: 'started' | 'finished'; ok?: boolean; workflow: string}) => void;
}

/**
 * Runs the worker until `signal` fires and its runs have ended.
 * @throws StratosError STRATOS_ENGINE_NOT_CONFIGURED, STRATOS_QUEUE_UNKNOWN, STRATOS_QUEUE_NOT_IN_REPOSITORY,
 *   STRATOS_WORKER_ID_IN_USE, STRATOS_ENGINE_PACKAGE_MISSING, STRATOS_ENGINE_DATABASE_FAILED.
 */
export async function startWorker(options: StartWorkerOptions): Promise<WorkerReport> {
  const host = resolveHost(options);
  const engine = await requireEngine(host, 'stratos worker');
  const queue = resolveQueue(engine.settings, options.queue);
  const {requireCheckout} = await import('../engine/repository-identity.ts');
  const checkout = await requireCheckout(host.cwd, 'A worker');
  const id =
    options.id ?? `${hostname()}-${sha256Hex(`${checkout.root}\0${host.home}\0${queue}`).slice(0, 12)}`;
  const release = holdWorkerLock(host.home, id);
  try {
    const machine = readMachineIdentity(host.home);
    const {runWorker} = await import('../engine/run-worker.ts');
    const queueConcurrency = engine.settings.queues[queue]?.concurrency;
    return await runWorker({
      databaseUrl: engine.databaseUrl,
      queue,
      workerId: id,
      ...(queueConcurrency === undefined ? {} : {queueConcurrency}),
      ...(options.concurrency === undefined ? {} : {workerConcurrency: options.concurrency}),
      signal: options.signal,
      ...(options.onLog === undefined ? {} : {log: options.onLog}),
      ...(options.onRun === undefined ? {} : {onRun: options.onRun}),
      onReady: () => options.onReady?.({id, queue, repository: checkout.root}),
      execute: (request, run) => runQueuedRequest(request, checkout, host.env, id, run.journal, machine),
    });
  } finally {
    release();
  }
}

/** One queued run in this checkout; every failure comes back as data, recorded on the run. */
async function runQueuedRequest(
  request: QueuedRunRequest,
  checkout: Checkout,
  env: NodeJS.ProcessEnv,
  worker: string,
  journal: JournalStore,
  machine: MachineIdentity,
): Promise<QueuedRunResult> {
  const startedAt = new Date();
  const failed = (error: StratosError): QueuedRunResult => ({
    ok: false,
    workflow: request.workflow,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    error: describeError(error),
    warnings: [],
    worker,
  });
  if (request.repository?.rootCommit !== checkout.identity.rootCommit) {
    const wanted = request.repository?.remote ?? request.repository?.rootCommit ?? 'an unknown repository';
    return failed(
      new StratosError(
        'STRATOS_QUEUE_REPOSITORY_MISSING',
        `Worker ${worker} cannot run '${request.workflow}': the run belongs to the repository ${wanted} (root commit ${request.repository?.rootCommit ?? 'unknown'}), and the worker runs in ${checkout.root}, a checkout of another repository (root commit ${checkout.identity.rootCommit}). Start a worker inside a clone of the run's repository.`,
        {details: {worker, repository: request.repository, checkout: checkout.root}},
      ),
    );
  }
  try {
    // The run's journal is its table rows: a run recovered after its worker died answers the steps it completed
    // from them (docs/scale-out.md, "Steps"), each recorded with this machine ("Moving a run to another machine").
    const replay = await journal.read();
    const steps = createJournalSeam(request.workflow, {store: journal, replay, machine});
    const result = await runWorkflow(join(checkout.root, request.root, request.folder), request.input, {
      cwd: join(checkout.root, request.directory),
      env,
      steps,
    });
    const cleanup = result.cleanupFailures.map((f) => ({
      code: f.error.code,
      severity: 'warning' as const,
      message: f.error.message,
    }));
    const warnings = [
      ...result.warnings.map((w) => ({code: w.code, severity: 'warning' as const, message: w.message})),
      ...cleanup,
    ];
    return {
      ok: result.ok,
      executionId: result.executionId,
      workflow: result.workflow,
      startedAt: result.startedAt,
      durationMs: result.durationMs,
      ...(result.runDirectory === undefined ? {} : {runDirectory: result.runDirectory}),
      ...(result.ok ? {output: result.output} : {error: describeError(result.error)}),
      warnings,
      worker,
    };
  } catch (error) {
    // Resolution and build failures: the run fails with them, as a local run would.
    return failed(
      isStratosError(error)
        ? error
        : new StratosError('STRATOS_INTERNAL', error instanceof Error ? error.message : String(error), {
            cause: error,
          }),
    );
  }
}

/** The error as the run's record keeps it in the database: JSON, with every known secret removed. */
function describeError(error: StratosError): NonNullable<QueuedRunResult['error']> {
  return {
    code: error.code,
    message: redactCredentialSecrets(error.message),
    ...(error.details === undefined
      ? {}
      : {details: JSON.parse(redactCredentialSecrets(JSON.stringify(error.details)))}),
    ...(error.location === undefined ? {} : {location: error.location}),
  };
}
