/**
 * One worker per id on a machine: DBOS recovers the runs of an executor id when a worker with that id starts, so
 * two live workers sharing an id would take each other's running runs. The lock is a file holding the worker's
 * process id under `<STRATOS_HOME>/workers/`; a file whose process is gone is taken over.
 */
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {isProcessAlive} from '../internal/process-alive.ts';

/**
 * Takes the lock of worker `id`; returns its release.
 * @throws StratosError STRATOS_WORKER_ID_IN_USE when a live process holds it.
 */
export function holdWorkerLock(home: string, id: string): () => void {
  const folder = join(home, 'workers');
  mkdirSync(folder, {recursive: true});
  const file = join(folder, `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.pid`);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, {flag: 'wx'});
      return () => rmSync(file, {force: true});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder)) {
      throw new StratosError(
        'STRATOS_WORKER_ID_IN_USE',
        `A worker with the id '${id}' is already running on this machine (process ${holder}). Stop it, or give this worker its own id with --id.`,
        {details: {id, pid: holder}},
      );
    }
    // Left by a worker that died: take it over.
    rmSync(file, {force: true});
  }
  throw new StratosError(
    'STRATOS_WORKER_ID_IN_USE',
    `The lock of worker '${id}' (${file}) keeps changing; try again.`,
    {
      details: {id},
    },
  );
}
