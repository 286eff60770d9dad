/**
 * ~/.stratos/credentials.json: plaintext JSON protected by filesystem permissions (directory 0700, file 0600,
 * temporary files 0600 from creation), replaced by atomic rename. Every modification holds a short file lock and
 * re-reads the file under it; a refresh holds a per-credential refresh lock (see {@link CredentialStore.withRefreshLock})
 * and never the file lock while it waits on the network. No lock is held during browser sign-in.
 *
 * A missing file means no credentials. A malformed file or unsafe permissions are errors and the file is left as
 * it is. Rotated tokens are first written to a pending file that was opened before the refresh request was sent
 * (see {@link CredentialStore.prepareRotation}); if saving them into the main file fails, the pending file keeps
 * them and every later read folds them in, so a rotated refresh token is never lost to a failed save.
 */
import {createHash, randomBytes} from 'node:crypto';
import {constants} from 'node:fs';
import {chmod, lstat, mkdir, open, readdir, readFile, rm, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {AuthenticationError} from '../../errors/index.ts';
import {writeFileAtomic} from '../../internal/atomic-write.ts';
import {isNotFound} from '../../internal/json-file.ts';
import {resolveStratosHome} from '../../internal/stratos-home.ts';
import {
  type CredentialIdentity,
  type CredentialRecord,
  credentialFileVersion,
  identityOf,
  keepUnknownFields,
  parseCredentialData,
  parseCredentialFile,
  registerRecordSecrets,
  sameIdentity,
  serializeCredentialFile,
  serializeRecord,
} from './credential-record.ts';
import {withFileLock} from './file-lock.ts';

export interface CredentialStoreOptions {
  /** The Stratos home (default `~/.stratos` or STRATOS_HOME). */
  home?: string;
  /** Lock waits; defaults suit interactive use. */
  fileLockTimeoutMs?: number;
  refreshLockTimeoutMs?: number;
}

/** A rotation in progress: the pending file is open and has room before the refresh request is sent. */
export interface PendingRotation {
  /** Writes the rotated record into the pending file and syncs it. */
  write(record: CredentialRecord): Promise<void>;
  /** Removes the pending file (after the main file holds the record, or when nothing was rotated). */
  discard(): Promise<void>;
  readonly path: string;
}

const fileName = 'credentials.json';
const pendingPrefix = `${fileName}.pending-`;
/** Room reserved in a pending file before the refresh request, so writing the rotated tokens cannot run out. */
const pendingReserveBytes = 64 * 1024;
/** An unreadable pending file younger than this may still be in progress in another process. */
const abandonedPendingMs = 10 * 60_000;

export class CredentialStore {
  readonly home: string;
  readonly file: string;
  readonly #fileLockTimeoutMs: number;
  readonly #refreshLockTimeoutMs: number;

  constructor(options: CredentialStoreOptions = {}) {
    this.home = options.home ?? resolveStratosHome();
    this.file = join(this.home, fileName);
    this.#fileLockTimeoutMs = options.fileLockTimeoutMs ?? 15_000;
    this.#refreshLockTimeoutMs = options.refreshLockTimeoutMs ?? 90_000;
  }

  /**
   * Every stored record, pending rotations folded in. A missing file is no records.
   *
   * @throws AuthenticationError `STRATOS_CREDENTIALS_MALFORMED`, `STRATOS_CREDENTIALS_PERMISSIONS`.
   */
  async read(): Promise<CredentialRecord[]> {
    const {records} = await this.#readMain();
    return (await this.#foldPending(records)).records;
  }

  async find(identity: CredentialIdentity): Promise<CredentialRecord | undefined> {
    return (await this.read()).find((record) => sameIdentity(record, identity));
  }

  /**
   * Changes the records under the file lock: re-reads the file, applies `change`, writes it atomically (0600).
   * `change` returns the new records and a result; it must not wait on anything slow. This is the one write path:
   * unknown fields of the file and of every record whose identity is still there are kept (keepUnknownFields).
   */
  async update<T>(
    change: (records: CredentialRecord[]) => {records: CredentialRecord[]; result: T},
  ): Promise<T> {
    await this.#ensureDirectory();
    return withFileLock(
      `${this.file}.lock`,
      {timeoutMs: this.#fileLockTimeoutMs, staleMs: 30_000, label: 'credential file'},
      async () => {
        const main = await this.#readMain();
        const folded = await this.#foldPending(main.records);
        const changed = change(folded.records.map((record) => ({...record})));
        // Fields this Stratos does not know (written by a newer one) are kept on rewrite, in the file and in
        // every record that is still there, whatever the writer built its records from.
        const records = keepUnknownFields(folded.records, changed.records);
        registerRecordSecrets(records);
        await writeFileAtomic(this.file, serializeCredentialFile(records, main.extra), {mode: 0o600});
        await Promise.all(folded.consumed.map((path) => rm(path, {force: true})));
        return changed.result;
      },
    );
  }

  /** Inserts `record`, replacing the record of the same identity. */
  async upsert(record: CredentialRecord): Promise<void> {
    await this.update((records) => ({
      records: [...records.filter((item) => !sameIdentity(item, record)), record],
      result: undefined,
    }));
  }

  /** Removes the records `match` selects; returns their identities (never their secrets). */
  async remove(match: (record: CredentialRecord) => boolean): Promise<CredentialIdentity[]> {
    if (!(await this.#exists())) return [];
    return this.update((records) => ({
      records: records.filter((record) => !match(record)),
      result: records.filter(match).map(identityOf),
    }));
  }

  /**
   * Runs `fn` holding the refresh lock of one credential, so concurrent processes refresh it once. `fn` must
   * re-read the record after the lock is acquired: another process may have refreshed it meanwhile.
   */
  async withRefreshLock<T>(
    identity: CredentialIdentity,
    fn: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    await this.#ensureDirectory();
    const key = createHash('sha256')
      .update(JSON.stringify([identity.serverUrl, identity.authorizationServer, identity.clientId]))
      .digest('hex')
      .slice(0, 24);
    return withFileLock(
      join(this.home, `credentials.refresh-${key}.lock`),
      {timeoutMs: this.#refreshLockTimeoutMs, staleMs: 120_000, label: 'credential refresh', signal},
      fn,
    );
  }

  /**
   * Opens a pending file for the rotation of `record`'s refresh token, with room reserved, before the refresh
   * request is sent. A store that cannot be written fails here, while the old tokens are still valid.
   */
  async prepareRotation(record: CredentialRecord): Promise<PendingRotation> {
    await this.#ensureDirectory();
    const path = join(this.home, `${pendingPrefix}${randomBytes(8).toString('hex')}`);
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.write(Buffer.alloc(pendingReserveBytes, 0x20), 0, pendingReserveBytes, 0);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(path, {force: true});
      throw error;
    }
    const replaces = hashToken(record.refreshToken);
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await handle.close();
    };
    return {
      path,
      write: async (rotated) => {
        const text = JSON.stringify({
          version: credentialFileVersion,
          replaces,
          records: [serializeRecord(rotated)],
        });
        const bytes = Buffer.from(text, 'utf8');
        await handle.write(bytes, 0, bytes.length, 0);
        await handle.truncate(bytes.length);
        await handle.sync();
        await close();
      },
      discard: async () => {
        await close();
        await rm(path, {force: true});
      },
    };
  }

  async #exists(): Promise<boolean> {
    try {
      assertRegularFile(await lstat(this.file), this.file);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async #readMain(): Promise<{records: CredentialRecord[]; extra: Record<string, unknown>}> {
    await this.#checkDirectoryForRead();
    let text: string;
    try {
      // A symbolic link (even a dangling one) is refused, never followed or replaced: see assertRegularFile.
      assertRegularFile(await lstat(this.file), this.file);
      const handle = await open(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        assertSafeFile(await handle.stat(), this.file);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (isNotFound(error)) return {records: [], extra: {}};
      if ((error as NodeJS.ErrnoException).code === 'ELOOP')
        throw notRegularFile(this.file, 'a symbolic link');
      throw error;
    }
    return parseCredentialFile(text, this.file);
  }

  /** Applies pending rotations whose replaced refresh token is still the stored one. */
  async #foldPending(
    records: CredentialRecord[],
  ): Promise<{records: CredentialRecord[]; consumed: string[]}> {
    let names: string[];
    try {
      names = (await readdir(this.home)).filter((name) => name.startsWith(pendingPrefix)).sort();
    } catch (error) {
      if (isNotFound(error)) return {records, consumed: []};
      throw error;
    }
    const consumed: string[] = [];
    let result = records;
    for (const name of names) {
      const path = join(this.home, name);
      const pending = await readPending(path);
      if (pending === 'missing') continue;
      if (pending === 'unreadable') {
        const info = await stat(path).catch(() => undefined);
        if (info !== undefined && Date.now() - info.mtimeMs > abandonedPendingMs) consumed.push(path);
        continue;
      }
      for (const rotated of pending.records) {
        const current = result.find((record) => sameIdentity(record, rotated));
        if (current === undefined || hashToken(current.refreshToken) === pending.replaces) {
          result = [
            ...result.filter((record) => !sameIdentity(record, rotated)),
            ...keepUnknownFields(result, [rotated]),
          ];
        }
      }
      consumed.push(path);
    }
    return {records: result, consumed};
  }

  async #checkDirectoryForRead(): Promise<void> {
    if (process.platform === 'win32') return;
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(this.home);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    assertOwned(info, this.home);
    if ((info.mode & 0o022) !== 0) throw unsafe(this.home, info.mode, 'directory', 'chmod 700');
  }

  /** Creates the home directory 0700, or tightens a Stratos home that other users can read (never one they can write). */
  async #ensureDirectory(): Promise<void> {
    await mkdir(this.home, {recursive: true, mode: 0o700});
    if (process.platform === 'win32') return;
    const info = await stat(this.home);
    assertOwned(info, this.home);
    if ((info.mode & 0o022) !== 0) throw unsafe(this.home, info.mode, 'directory', 'chmod 700');
    if ((info.mode & 0o077) !== 0) await chmod(this.home, 0o700);
  }
}

type PendingFile = {replaces: string | undefined; records: CredentialRecord[]};

async function readPending(path: string): Promise<PendingFile | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return isNotFound(error) ? 'missing' : 'unreadable';
  }
  try {
    const data = JSON.parse(text) as {replaces?: unknown};
    const records = parseCredentialData(data, path);
    return {replaces: typeof data.replaces === 'string' ? data.replaces : undefined, records};
  } catch {
    return 'unreadable';
  }
}

function hashToken(token: string | undefined): string | undefined {
  return token === undefined ? undefined : createHash('sha256').update(token).digest('hex');
}

/**
 * The credential file must be a regular file: renaming a new file over a symbolic link would replace the link and
 * leave the tokens in its target (a "signed out" that is not), and a folder is no permission problem.
 */
function assertRegularFile(info: {isFile(): boolean; isSymbolicLink(): boolean}, file: string): void {
  if (info.isSymbolicLink()) throw notRegularFile(file, 'a symbolic link');
  if (!info.isFile()) throw notRegularFile(file, 'not a regular file (a folder or a special file)');
}

function notRegularFile(file: string, what: string): AuthenticationError {
  return new AuthenticationError(
    'STRATOS_CREDENTIALS_NOT_FILE',
    `The credential path ${file} is ${what}; Stratos reads and writes credentials only in a regular file there. Stratos left it unchanged. Move the real file to ${file} (or remove what is there and sign in again with 'stratos mcp login --name <server>').`,
    {details: {path: file}},
  );
}

function assertSafeFile(info: {mode: number; uid: number; isFile(): boolean}, file: string): void {
  if (!info.isFile()) throw notRegularFile(file, 'not a regular file (a folder or a special file)');
  if (process.platform === 'win32') return;
  assertOwned(info, file);
  if ((info.mode & 0o077) !== 0) throw unsafe(file, info.mode, 'file', 'chmod 600');
}

function assertOwned(info: {uid: number}, path: string): void {
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new AuthenticationError(
      'STRATOS_CREDENTIALS_PERMISSIONS',
      `The credential path ${path} belongs to another user (uid ${info.uid}); Stratos does not read credentials it does not own. Stratos left it unchanged.`,
      {details: {path}},
    );
  }
}

function unsafe(path: string, mode: number, kind: 'file' | 'directory', fix: string): AuthenticationError {
  const octal = (mode & 0o777).toString(8).padStart(3, '0');
  return new AuthenticationError(
    'STRATOS_CREDENTIALS_PERMISSIONS',
    `The credential ${kind} ${path} has mode ${octal}, which lets other users ${kind === 'file' ? 'read' : 'change'} it. Stratos left it unchanged; run '${fix} ${path}' if you trust its contents, or remove it and sign in again.`,
    {details: {path, mode: octal}},
  );
}
