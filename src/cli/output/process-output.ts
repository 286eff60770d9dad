/**
 * The process's stdout and stderr without Node's stream objects until something asks for them. Creating
 * `process.stdout` on a pipe loads net and the streams (about 5 ms, a fifth of a no-op command); the CLI's own text
 * needs none of it. Node writes stdio synchronously on POSIX for files, pipes and terminals, so the CLI writes its
 * text to the descriptor with `writeSync`: same order, same blocking, nothing left to drain at exit.
 *
 * Anything else that writes (workflow console output, a stray `process.stdout.write`) still finds the stream: the
 * first read of `process.stdout` creates it, and `wrap` replaces its `write` (the workflow echo: redacted and
 * escaped). From then on the CLI's text goes through the stream's own write too, so the two never overtake each
 * other. A descriptor that refuses a
 * synchronous write (`EAGAIN`, one opened non-blocking by another program) is handed to the stream in the same way.
 */
import {fstatSync, statSync, writeSync} from 'node:fs';

type Write = typeof process.stdout.write;

/** One output descriptor of the process, as the CLI writes it. */
export interface ProcessOutput {
  /** Writes `text` now, untouched (the stream's replaced `write` is not on this path). */
  write(text: string): void;
  /** Calls `done` once everything written has left the process. */
  flush(done: () => void): void;
  /** The stream's own `write`, creating the stream: for sending another stream's writes to this descriptor. */
  streamWrite(): Write;
  /** Whether the descriptor is a terminal. */
  readonly isTTY: boolean;
}

/**
 * Takes over `process[name]`: the getter Node defines still creates the stream on first use, and `wrap` replaces
 * that stream's `write` (it gets the stream's own write to call).
 */
export function openProcessOutput(name: 'stdout' | 'stderr', wrap: (write: Write) => Write): ProcessOutput {
  const fd = name === 'stdout' ? 1 : 2;
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  const createStream = descriptor?.get ?? (() => descriptor?.value as NodeJS.WriteStream);
  let stream: {created: NodeJS.WriteStream; write: Write} | undefined;
  const ensureStream = () => {
    if (stream === undefined) {
      const created = createStream.call(process) as NodeJS.WriteStream;
      const original = created.write.bind(created) as Write;
      created.write = wrap(original);
      stream = {created, write: original};
    }
    return stream;
  };
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor?.enumerable ?? true,
    get: () => ensureStream().created,
  });
  let closed = false;
  return {
    write(text) {
      if (closed || text === '') return;
      if (stream !== undefined) {
        stream.write(text);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let offset = 0;
      try {
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // The reader went away (`stratos list | head`) or there is none: what is left has nowhere to go.
        if (code === 'EPIPE' || code === 'EBADF') closed = true;
        else if (code === 'EAGAIN') ensureStream().write(bytes.subarray(offset));
        else throw error;
      }
    },
    flush(done) {
      if (stream === undefined || closed) done();
      else stream.write('', done);
    },
    streamWrite: () => ensureStream().write,
    isTTY: isTerminal(fd),
  };
}

/**
 * A terminal is a character device; only then is `node:tty` (which loads net) worth asking, and not for
 * `/dev/null`, the character device output is most often sent to.
 */
function isTerminal(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice() || stats.rdev === statSync('/dev/null', {throwIfNoEntry: false})?.rdev)
      return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}
