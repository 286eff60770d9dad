/**
 * A PostgreSQL advisory lock taken by polling `pg_try_advisory_lock`, never by waiting inside
 * `pg_advisory_lock`: a session blocked in a statement holds a transaction open, and DBOS's migrations
 * (`CREATE INDEX CONCURRENTLY`) wait for every open transaction, so a second worker waiting for the lock would
 * stall the first one's migration forever.
 */
import type {ClientBase} from 'pg';

const pollMs = 100;

/** Runs `work` while `client`'s session holds the advisory lock `name`. */
export async function withAdvisoryLock<T>(
  client: ClientBase,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  for (;;) {
    const result = await client.query<{locked: boolean}>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [name],
    );
    if (result.rows[0]?.locked === true) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  }
}
