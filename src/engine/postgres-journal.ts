/**
 * The step journal in PostgreSQL: one table keyed by run id and step key, in the engine's database beside DBOS's
 * own tables. `append` resolves once the row is committed, so a step result workflow code saw survives the worker
 * that ran it; a run recovered on another worker reads the same rows. Keys, not positions: parallel agents complete
 * in any order and a step's key is the same on every attempt (docs/scale-out.md).
 */
import type {Pool} from 'pg';
import type {JournalEntry, JournalStore} from '../context/step-journal.ts';
import {StratosError} from '../errors/index.ts';
import {withAdvisoryLock} from './advisory-lock.ts';

/** The schema of Stratos's own tables in the engine's database (DBOS keeps its tables in `dbos`). */
export const JOURNAL_SCHEMA = 'stratos';

const createStatements = [
  `CREATE SCHEMA IF NOT EXISTS ${JOURNAL_SCHEMA}`,
  `CREATE TABLE IF NOT EXISTS ${JOURNAL_SCHEMA}.step_journal (
    run_id text NOT NULL,
    step_key text NOT NULL,
    sequence bigserial NOT NULL,
    entry jsonb NOT NULL,
    PRIMARY KEY (run_id, step_key)
  )`,
];

/**
 * Creates the journal's schema and table when missing. Safe to call from several workers at once.
 * @throws StratosError STRATOS_ENGINE_DATABASE_FAILED when the database refuses.
 */
export async function ensureJournalTable(pool: Pool): Promise<void> {
  const client = await pool.connect().catch((error: unknown) => {
    throw databaseFailed('connect to the engine database', error);
  });
  try {
    // One creator at a time: concurrent CREATE ... IF NOT EXISTS can still collide on the catalog.
    await withAdvisoryLock(client, 'stratos.step_journal', async () => {
      for (const statement of createStatements) await client.query(statement);
    });
  } catch (error) {
    throw databaseFailed('create the step journal table', error);
  } finally {
    client.release();
  }
}

/**
 * The journal of one run in the engine's database. `ensureJournalTable` must have run once on the database.
 * An entry appended twice under one key keeps the first: the step it describes completed once.
 * @example
 * const journal = createPostgresJournal(pool, runId);
 * await journal.append(entry); // committed
 */
export function createPostgresJournal(pool: Pool, runId: string): JournalStore {
  return {
    async read() {
      const result = await pool
        .query<{entry: JournalEntry}>(
          `SELECT entry FROM ${JOURNAL_SCHEMA}.step_journal WHERE run_id = $1 ORDER BY sequence`,
          [runId],
        )
        .catch((error: unknown) => {
          throw databaseFailed(`read the step journal of run ${runId}`, error);
        });
      return result.rows.map((row) => row.entry);
    },
    async append(entry) {
      // Outside a transaction every statement commits before the server answers it.
      await pool
        .query(
          `INSERT INTO ${JOURNAL_SCHEMA}.step_journal (run_id, step_key, entry) VALUES ($1, $2, $3)
           ON CONFLICT (run_id, step_key) DO NOTHING`,
          [runId, entry.key, JSON.stringify(entry)],
        )
        .catch((error: unknown) => {
          throw databaseFailed(`record step ${entry.key} of run ${runId}`, error);
        });
    },
  };
}

/** A database failure as a coded error; the driver's message never carries the connection password. */
export function databaseFailed(action: string, cause: unknown): StratosError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StratosError(
    'STRATOS_ENGINE_DATABASE_FAILED',
    `Stratos could not ${action}: ${reason}. Check that the engine's database (engine.databaseUrl in settings.json) is reachable and that its user may create tables.`,
    {cause},
  );
}
