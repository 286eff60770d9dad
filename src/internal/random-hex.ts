/**
 * Random identifiers (run, execution, trace and span ids, lock tokens, temporary file names) as lowercase hex,
 * from the operating system's random source. On Linux and macOS the bytes come from `/dev/urandom`, read a block
 * at a time, so that a command's start-up does not load `node:crypto` (several milliseconds on its first use);
 * where that device cannot be read (Windows), from `node:crypto`'s `randomBytes`.
 */
import {closeSync, openSync, readSync} from 'node:fs';

const blockSize = 256;
let block: Buffer | undefined;
let used = 0;

/** `bytes` random bytes as `2 * bytes` lowercase hex digits. Every byte is handed out once. */
export function randomHex(bytes: number): string {
  if (bytes > blockSize) return readRandom(bytes).toString('hex');
  if (block === undefined || used + bytes > block.length) {
    block = readRandom(blockSize);
    used = 0;
  }
  const hex = block.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

function readRandom(size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, buffer, filled, size - filled, null);
      if (read <= 0) throw new Error('/dev/urandom returned no bytes');
      filled += read;
    }
    return buffer;
  } catch {
    return process.getBuiltinModule('node:crypto').randomBytes(size);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
