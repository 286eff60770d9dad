/**
 * The engine seen from a machine that is not a worker: enqueue a run, wait for its result, read queued, running
 * and finished runs. A DBOS client on the engine's database; DBOS itself is not launched here.
 */
import {randomHex} from '../internal/random-hex.ts';
import {createDbosLogger, type EngineLog} from './dbos-logger.ts';
import {loadDbos} from './load-engine-packages.ts';
import {migrateEngineDatabase} from './migrate-database.ts';
import {databaseFailed} from './postgres-journal.ts';
import {
  ENGINE_APPLICATION,
  engineVersion,
  QUEUED_RUN_WORKFLOW,
  type QueuedRunRequest,
  type QueuedRunResult,
} from './queued-run.ts';

/** A queued run as the database holds it. */
export interface QueuedRunRecord {
  runId: string;
  queue: string;
  /** `ENQUEUED`, `PENDING` (running), `SUCCESS`, `ERROR`, `CANCELLED`, ... as DBOS names them. */
  state: string;
  /** `queued`, `running`, `succeeded`, `failed` or `cancelled`: the Stratos word for the state and result. */
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  workflow?: string;
  repository?: QueuedRunRequest['repository'];
  directory?: string;
  worker?: string;
  createdAt: string;
  updatedAt?: string;
  result?: QueuedRunResult;
  /** Times DBOS started the run again after its worker died. */
  recoveryAttempts?: number;
}

export interface EngineClient {
  /** Enqueues a run; resolves with its id once the row is committed. */
  enqueue(queue: string, request: QueuedRunRequest): Promise<string>;
  /** Waits until the run ends and returns what its worker returned. */
  waitForResult(runId: string, signal?: AbortSignal): Promise<QueuedRunResult>;
  list(options: {queue?: string; limit: number}): Promise<QueuedRunRecord[]>;
  get(runId: string): Promise<QueuedRunRecord | undefined>;
  close(): Promise<void>;
}

/**
 * Opens a client on the engine's database, creating DBOS's tables when they do not exist yet.
 * @throws StratosError STRATOS_ENGINE_PACKAGE_MISSING, STRATOS_ENGINE_DATABASE_FAILED.
 */
export async function openEngineClient(databaseUrl: string, log?: EngineLog): Promise<EngineClient> {
  const {DBOSClient} = await loadDbos();
  const logger = createDbosLogger(log);
  let client: Awaited<ReturnType<typeof DBOSClient.create>>;
  await migrateEngineDatabase(databaseUrl);
  try {
    client = await DBOSClient.create({
      systemDatabaseUrl: databaseUrl,
      applicationName: ENGINE_APPLICATION,
      logger,
      systemDatabasePoolSize: 4,
    });
  } catch (error) {
    throw databaseFailed('open the engine database', error);
  }
  const describe = (status: Awaited<ReturnType<typeof client.listWorkflows>>[number]) =>
    describeRecord(status);
  return {
    async enqueue(queue, request) {
      const runId = randomHex(8);
      await client
        .enqueue(
          {
            queueName: queue,
            workflowName: QUEUED_RUN_WORKFLOW,
            workflowID: runId,
            appVersion: engineVersion(),
          },
          request,
        )
        .catch((error: unknown) => {
          throw databaseFailed(`enqueue a run of '${request.workflow}' on queue '${queue}'`, error);
        });
      return runId;
    },
    async waitForResult(runId, signal) {
      const handle = client.retrieveWorkflow<QueuedRunResult>(runId);
      const result = handle.getResult({pollingIntervalMs: 200});
      if (signal === undefined) return result;
      signal.throwIfAborted();
      return new Promise((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, {once: true});
        result.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    async list({queue, limit}) {
      const statuses = await client
        .listWorkflows({
          workflowName: QUEUED_RUN_WORKFLOW,
          ...(queue === undefined ? {} : {queueName: queue}),
          limit,
          sortDesc: true,
          loadInput: true,
          loadOutput: true,
        })
        .catch((error: unknown) => {
          throw databaseFailed('list queued runs', error);
        });
      return statuses.map(describe);
    },
    async get(runId) {
      const status = await client.getWorkflow(runId).catch((error: unknown) => {
        throw databaseFailed(`read queued run ${runId}`, error);
      });
      return status === undefined || status.workflowName !== QUEUED_RUN_WORKFLOW
        ? undefined
        : describe(status);
    },
    close: () => client.destroy(),
  };
}

function describeRecord(status: {
  workflowID: string;
  status: string;
  queueName?: string;
  input?: unknown[];
  output?: unknown;
  executorId?: string;
  createdAt: number;
  updatedAt?: number;
  recoveryAttempts?: number;
}): QueuedRunRecord {
  const request = status.input?.[0] as QueuedRunRequest | undefined;
  const result = status.output as QueuedRunResult | undefined;
  return {
    runId: status.workflowID,
    queue: status.queueName ?? '',
    state: status.status,
    status: statusOf(status.status, result),
    ...(request?.workflow === undefined ? {} : {workflow: request.workflow}),
    ...(request?.repository === undefined ? {} : {repository: request.repository}),
    ...(request?.directory === undefined ? {} : {directory: request.directory}),
    ...(status.executorId === undefined || status.status === 'ENQUEUED' ? {} : {worker: status.executorId}),
    createdAt: new Date(status.createdAt).toISOString(),
    ...(status.updatedAt === undefined ? {} : {updatedAt: new Date(status.updatedAt).toISOString()}),
    ...(result === undefined || result === null ? {} : {result}),
    ...(status.recoveryAttempts === undefined ? {} : {recoveryAttempts: status.recoveryAttempts}),
  };
}

function statusOf(state: string, result: QueuedRunResult | undefined): QueuedRunRecord['status'] {
  if (state === 'ENQUEUED' || state === 'DELAYED') return 'queued';
  if (state === 'PENDING') return 'running';
  if (state === 'SUCCESS') return result?.ok === true ? 'succeeded' : 'failed';
  if (state === 'CANCELLED') return 'cancelled';
  return 'failed';
}
