/**
 * Creates or upgrades DBOS's tables in the engine's database, one process at a time: workers and enqueuing
 * commands that start together on a fresh database would otherwise run DBOS's migrations at once, and PostgreSQL
 * ends one of them with a deadlock.
 */
import {withAdvisoryLock} from './advisory-lock.ts';
import {loadDbos, loadPg} from './load-engine-packages.ts';
import {databaseFailed} from './postgres-journal.ts';

const lockName = 'stratos.engine.migrate';

/**
 * Runs DBOS's migrations under a PostgreSQL advisory lock.
 * @throws StratosError STRATOS_ENGINE_PACKAGE_MISSING, STRATOS_ENGINE_DATABASE_FAILED.
 */
export async function migrateEngineDatabase(databaseUrl: string): Promise<void> {
  const [{DBOS}, pg] = await Promise.all([loadDbos(), loadPg()]);
  const client = new pg.Client({connectionString: databaseUrl});
  try {
    await client.connect();
    await withAdvisoryLock(client, lockName, () => DBOS.migrate(databaseUrl));
  } catch (error) {
    throw databaseFailed('prepare the engine database', error);
  } finally {
    await client.end().catch(() => {});
  }
}
