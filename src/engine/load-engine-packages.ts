/**
 * The engine's optional packages, imported only when a queue command or a worker runs: `@dbos-inc/dbos-sdk`
 * (queues, durable runs, recovery) and `pg` (the step journal). Neither loads on the local paths.
 */
import {StratosError} from '../errors/index.ts';

export type DbosModule = typeof import('@dbos-inc/dbos-sdk');
export type PgModule = typeof import('pg');

const install = 'npm install @dbos-inc/dbos-sdk pg';

/**
 * DBOS Transact.
 * @throws StratosError STRATOS_ENGINE_PACKAGE_MISSING when it is not installed.
 */
export async function loadDbos(): Promise<DbosModule> {
  try {
    return await import('@dbos-inc/dbos-sdk');
  } catch (error) {
    throw missing('@dbos-inc/dbos-sdk', error);
  }
}

/**
 * The PostgreSQL driver.
 * @throws StratosError STRATOS_ENGINE_PACKAGE_MISSING when it is not installed.
 */
export async function loadPg(): Promise<PgModule> {
  try {
    const module = (await import('pg')) as PgModule & {default?: PgModule};
    return module.default ?? module;
  } catch (error) {
    throw missing('pg', error);
  }
}

function missing(name: string, cause: unknown): StratosError {
  return new StratosError(
    'STRATOS_ENGINE_PACKAGE_MISSING',
    `The scale-out engine needs the package ${name}, which is not installed beside Stratos. Run '${install}' where Stratos is installed, or remove the engine from settings.json to run locally.`,
    {cause, details: {package: name, install}},
  );
}
