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
  return readDevice(size) ?? process.getBuiltinModule('node:crypto').randomBytes(size);
}

/** `size` bytes of `/dev/urandom`, or undefined where the device cannot be read or ends early. */
function readDevice(size: number): Buffer | undefined {
  const buffer = Buffer.allocUnsafe(size);
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, buffer, filled, size - filled, null);
      if (read <= 0) return undefined;
      filled += read;
    }
    return buffer;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
