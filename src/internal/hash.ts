/**
 * SHA-256 as lowercase hex. Small inputs (manifests, paths, key parts) are hashed by `@noble/hashes` (audited, pure
 * JavaScript, four small modules), so the commands' cached paths never load `node:crypto`, whose first load costs
 * several milliseconds of every start-up (about twenty internal modules and OpenSSL set-up). Larger inputs go to
 * `node:crypto`, loaded on first use. Both give the same digest (`test/unit/internal/hash.test.ts` compares them).
 */
import {sha256} from '@noble/hashes/sha2.js';
import {bytesToHex} from '@noble/hashes/utils.js';

/**
 * Inputs up to this many bytes are hashed in JavaScript; larger ones by `node:crypto`, which is faster once loaded
 * (a rebuild that re-hashes large sources loads it then).
 */
export const smallInputLimit = 16 * 1024;

export function sha256Hex(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length > smallInputLimit) {
    return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
  }
  return bytesToHex(sha256(bytes));
}
