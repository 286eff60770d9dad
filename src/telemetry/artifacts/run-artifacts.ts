/**
 * The local artifacts of one top-level run: `run.json`, `run.log` and `events.jsonl` in the run folder. The
 * folder is shared by the run's descendant workflows. Every write failure is reported once through `onError`
 * and never thrown: artifacts must not fail the workflow.
 */
import {mkdirSync, renameSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {overwriteFileInPlace, writeFileAtomic} from '../../internal/atomic-write.ts';
import {AppendWriter} from './jsonl-writer.ts';
import {ensureWorkspaceFolder, runFolderName} from './run-folders.ts';
import {formatLogLine} from './run-log.ts';
import {EVENTS_FILE, type EventRecord, LOG_FILE, RUN_FILE, type RunRecord} from './run-record.ts';

/** Runs of this process whose final run.json is not written yet (for an exit that cannot wait: see below). */
const unfinished = new Set<RunArtifacts>();

/**
 * Writes run.json of every unfinished run of this process as `cancelled`, synchronously: for a process about to
 * exit at once (a second SIGINT or SIGTERM), so no run it leaves behind says `running`.
 */
export function recordUnfinishedRunsCancelled(error: {code: string; message: string}): void {
  for (const run of unfinished) run.recordEndedSync('cancelled', error);
}

/**
 * Writes run.json of every unfinished run of this process as `failed`, synchronously: for a process about to exit
 * on a failure that no run could take as its own (an uncaught error outside any workflow body).
 */
export function recordUnfinishedRunsFailed(error: {code: string; message: string}): void {
  for (const run of unfinished) run.recordEndedSync('failed', error);
}

export class RunArtifacts {
  readonly directory: string;
  #record: RunRecord;
  #events: AppendWriter;
  #log: AppendWriter;
  #onError: (file: string, error: unknown) => void;
  #runJsonWrite: Promise<void> = Promise.resolve();

  private constructor(directory: string, record: RunRecord, onError: (file: string, error: unknown) => void) {
    this.directory = directory;
    this.#record = record;
    this.#onError = onError;
    this.#events = new AppendWriter(join(directory, EVENTS_FILE), (error) => onError(EVENTS_FILE, error));
    this.#log = new AppendWriter(join(directory, LOG_FILE), (error) => onError(LOG_FILE, error));
  }

  /**
   * Creates the run folder and writes the first `run.json` (status `running`).
   * @throws when the folder cannot be created: the run then has no local artifacts.
   */
  static async create(
    home: string,
    record: Omit<RunRecord, 'runId'>,
    onError: (file: string, error: unknown) => void,
  ): Promise<RunArtifacts> {
    const workspace = await ensureWorkspaceFolder(home, record.invocationDirectory);
    const runId = runFolderName(new Date(record.startedAt), record.executionId);
    const directory = join(workspace, runId);
    mkdirSync(directory, {recursive: true, mode: 0o700});
    const artifacts = new RunArtifacts(directory, {...record, runId}, onError);
    unfinished.add(artifacts);
    await artifacts.#writeRunJson();
    return artifacts;
  }

  get runId(): string {
    return this.#record.runId;
  }

  /** Appends one record to events.jsonl and its human line to run.log. */
  write(record: EventRecord): void {
    this.#events.append(`${JSON.stringify(record)}\n`);
    const line = formatLogLine(record);
    if (line !== undefined) this.#log.append(`${line}\n`);
  }

  /** Writes the final run.json and closes the files. */
  async finish(update: Partial<RunRecord>): Promise<void> {
    await Promise.all([this.#events.close(), this.#log.close()]);
    this.#record = {...this.#record, ...update};
    await this.#writeRunJson(true);
    unfinished.delete(this);
  }

  /** The final record as `cancelled` or `failed`, written at once without waiting for the run's own end. */
  recordEndedSync(status: 'cancelled' | 'failed', error: {code: string; message: string}): void {
    unfinished.delete(this);
    const endedAt = new Date();
    const record: RunRecord = {
      ...this.#record,
      status,
      endedAt: endedAt.toISOString(),
      durationMs: Math.max(0, endedAt.getTime() - Date.parse(this.#record.startedAt)),
      error,
    };
    const file = join(this.directory, RUN_FILE);
    const temporary = `${file}.${process.pid}.exit.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, {mode: 0o600});
      renameSync(temporary, file);
    } catch {
      // The process is exiting: the next command that reads runs reconciles this one.
    }
  }

  /**
   * Replaces run.json atomically. The final record must not stay `running` on a full disk: when there is no room
   * for the temporary file, a compact record (value previews left out) overwrites the old one in its own blocks.
   */
  #writeRunJson(final = false): Promise<void> {
    const file = join(this.directory, RUN_FILE);
    const text = `${JSON.stringify(this.#record, null, 2)}\n`;
    this.#runJsonWrite = this.#runJsonWrite
      .then(() => writeFileAtomic(file, text, {mode: 0o600}))
      .catch(async (error: unknown) => {
        this.#onError(RUN_FILE, error);
        if (final) await overwriteFileInPlace(file, compactRecord(this.#record)).catch(() => {});
      });
    return this.#runJsonWrite;
  }
}

/** The record without value previews, in one line: what fits where the first run.json was. */
function compactRecord(record: RunRecord): string {
  const {input, output, ...rest} = record;
  const bare = (summary: RunRecord['input']) => ({type: summary.type, preview: '', truncated: true});
  return `${JSON.stringify({...rest, input: bare(input), ...(output === undefined ? {} : {output: bare(output)})})}\n`;
}
