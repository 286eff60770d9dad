/**
 * The one way Stratos reads a file a user named (a `{file:}` reference, a prompt file, a manifest, a test case,
 * `--input-file`): regular files only, and at most a given number of bytes. A FIFO, a device such as /dev/zero, a
 * directory or a socket is refused before a single byte is read, so no such path can block or exhaust memory.
 *
 * The file is opened with O_NONBLOCK (opening a FIFO for reading otherwise waits for a writer) and the type is
 * checked on the open descriptor, so the answer is about the file actually read, not one swapped in after a stat.
 * Synchronous on purpose: these files are small, and some are read on the cached paths (json-file.ts says why).
 */
import {closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync} from 'node:fs';

/** Thrown when a path names something other than a regular file; `kind` says what, in words. */
export class NotRegularFileError extends Error {
  readonly path: string;
  /** What the path is: 'a directory', 'a FIFO (named pipe)', 'a character device' ... */
  readonly kind: string;

  constructor(path: string, kind: string) {
    super(`${path} is ${kind}, not a regular file`);
    this.name = 'NotRegularFileError';
    this.path = path;
    this.kind = kind;
  }
}

/** Thrown when a file holds more than the caller's limit; reading stopped as soon as the limit was passed. */
export class FileTooLargeError extends Error {
  readonly path: string;
  readonly maxBytes: number;

  constructor(path: string, maxBytes: number) {
    super(`${path} is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
    this.path = path;
    this.maxBytes = maxBytes;
  }
}

export interface ReadRegularFileOptions {
  /** Refuse a file over this many bytes (FileTooLargeError); by default there is no limit. */
  maxBytes?: number;
  /** Called with the descriptor's stats before anything is read (a permission check that may throw). */
  check?: (stats: Stats) => void;
}

/**
 * Reads a regular file's bytes. Errors of the file system (ENOENT, EACCES, ELOOP ...) are thrown as Node throws
 * them; callers word them with the path and their own error code.
 *
 * @throws NotRegularFileError when the path (after symbolic links) is not a regular file.
 * @throws FileTooLargeError when the file holds more than `maxBytes`.
 * @example
 * const text = readRegularFile(path, {maxBytes: 1024 * 1024}).toString('utf8');
 */
export function readRegularFile(path: string, options: ReadRegularFileOptions = {}): Buffer {
  const maxBytes = options.maxBytes ?? Number.MAX_SAFE_INTEGER;
  // O_NONBLOCK is POSIX only; on Windows a FIFO cannot be named by a path anyway.
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    // A socket cannot be opened at all (ENXIO): say what it is rather than the errno.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      throw new NotRegularFileError(path, describeFileKind(statSync(path)));
    }
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path, describeFileKind(stats));
    if (stats.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
    options.check?.(stats);
    // Read up to one byte past the limit: a file that grew since fstat is still caught without reading it all.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.max(stats.size - total + 1, 8192);
      const chunk = Buffer.allocUnsafe(Math.min(want, maxBytes - total + 1, 1 << 20));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw new FileTooLargeError(path, maxBytes);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** What a file system entry is, in words for a message: 'a regular file', 'a directory', 'a FIFO (named pipe)' ... */
export function describeFileKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}
