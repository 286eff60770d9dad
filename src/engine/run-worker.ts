/**
 * A worker: a DBOS executor that takes runs from one queue and runs each through the caller's `execute` (the same
 * pipeline as a local run) until its signal fires. Then it stops taking runs and waits for the ones it runs to
 * end; the CLI's second signal ends the process at once, and DBOS recovers what was running when this worker
 * starts again under the same id (docs/scale-out.md).
 */
import type {Pool} from 'pg';
import type {JournalStore} from '../context/step-journal.ts';
import {createDbosLogger, type EngineLog} from './dbos-logger.ts';
import {loadDbos, loadPg} from './load-engine-packages.ts';
import {migrateEngineDatabase} from './migrate-database.ts';
import {createPostgresJournal, databaseFailed, ensureJournalTable} from './postgres-journal.ts';
import {
  ENGINE_APPLICATION,
  engineVersion,
  QUEUED_RUN_WORKFLOW,
  type QueuedRunRequest,
  type QueuedRunResult,
} from './queued-run.ts';

export interface WorkerOptions {
  databaseUrl: string;
  queue: string;
  /** Runs of the queue at once across all workers (the queue's setting). */
  queueConcurrency?: number;
  /** Runs of the queue at once on each worker. */
  workerConcurrency?: number;
  /** The DBOS executor id: a restarted worker with the same id recovers the runs it was running. */
  workerId: string;
  /** Runs one queued run; `journal` is the run's step journal in the engine's database. */
  execute(request: QueuedRunRequest, run: {runId: string; journal: JournalStore}): Promise<QueuedRunResult>;
  /** Stop taking runs, let running ones end, then resolve. */
  signal: AbortSignal;
  log?: EngineLog;
  /** Called once the worker listens on its queue. */
  onReady?: () => void;
  onRun?: (event: {runId: string; phase: 'started' | 'finished'; ok?: boolean; workflow: string}) => void;
}

export interface WorkerReport {
  workerId: string;
  queue: string;
  /** Runs this worker started (recovered ones included) and how they ended. */
  started: number;
  succeeded: number;
  failed: number;
}

/** How long a stopping worker waits for its running runs: as long as they take (a second signal cuts it short). */
const drainTimeoutMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Runs the worker until `signal` fires and its running runs have ended.
 * @throws StratosError STRATOS_ENGINE_PACKAGE_MISSING, STRATOS_ENGINE_DATABASE_FAILED.
 */
export async function runWorker(options: WorkerOptions): Promise<WorkerReport> {
  const {DBOS} = await loadDbos();
  const pg = await loadPg();
  const report: WorkerReport = {
    workerId: options.workerId,
    queue: options.queue,
    started: 0,
    succeeded: 0,
    failed: 0,
  };
  const pool: Pool = new pg.Pool({connectionString: options.databaseUrl, max: 8});
  // An idle connection the server drops must not end the process; the next query reports it.
  pool.on('error', (error) => options.log?.('warn', `Engine database connection lost: ${error.message}`));
  try {
    await ensureJournalTable(pool);
    await migrateEngineDatabase(options.databaseUrl);
    DBOS.setConfig({
      // Migrated just above, under a lock: workers starting together would deadlock on DBOS's own migrations.
      runMigrations: false,
      name: ENGINE_APPLICATION,
      systemDatabaseUrl: options.databaseUrl,
      applicationVersion: engineVersion(),
      executorID: options.workerId,
      listenQueues: [options.queue],
      logger: createDbosLogger(options.log),
    });
    DBOS.registerWorkflow(
      async (request: QueuedRunRequest): Promise<QueuedRunResult> => {
        const runId = DBOS.workflowID ?? 'unknown';
        report.started++;
        options.onRun?.({runId, phase: 'started', workflow: request.workflow});
        const result = await options.execute(request, {runId, journal: createPostgresJournal(pool, runId)});
        if (result.ok) report.succeeded++;
        else report.failed++;
        options.onRun?.({runId, phase: 'finished', ok: result.ok, workflow: request.workflow});
        return result;
      },
      {name: QUEUED_RUN_WORKFLOW},
    );
    try {
      await DBOS.launch();
      await DBOS.registerQueue(options.queue, {
        ...(options.queueConcurrency === undefined ? {} : {globalConcurrency: options.queueConcurrency}),
        ...(options.workerConcurrency === undefined ? {} : {workerConcurrency: options.workerConcurrency}),
        minPollingIntervalMs: 200,
        onConflict: 'always_update',
      });
    } catch (error) {
      await DBOS.shutdown({deregister: true}).catch(() => {});
      throw databaseFailed(`start a worker on queue '${options.queue}'`, error);
    }
    options.onReady?.();
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), {once: true});
    });
    await DBOS.shutdown({workflowCompletionTimeoutMS: drainTimeoutMs, deregister: true});
    return report;
  } finally {
    await pool.end().catch(() => {});
  }
}
