/**
 * Content hashes of build inputs with git's index shortcut: a file whose size, inode and modification time match
 * what the build record saw keeps its recorded hash without being read again. Content stays the proof: a file
 * whose recorded modification time was too close to the moment it was hashed (within the file system's timestamp
 * granularity, "racily clean" in git's words) is always read again, since a later same-size edit in that tick
 * would leave its stat unchanged.
 */
import {readFileSync, statSync} from 'node:fs';
import {sha256Hex} from '../internal/hash.ts';

/** One input file as a build saw it. `hash` is null for a file that did not exist. */
export interface FileStamp {
  path: string;
  size: number;
  ino: number;
  mtimeMs: number;
  hash: string | null;
}

/** Modification times this close to the hashing time (ms) are not trusted: FAT-like file systems tick in 2 s. */
const racyWindowMs = 2000;

/**
 * Stamps `paths` now. A file modified after `notAfter` (during the build that read it) gets no hash, so the next
 * check rehashes it and finds the build stale rather than trusting output compiled from another version.
 */
export function stampFiles(paths: readonly string[], notAfter = Number.POSITIVE_INFINITY): FileStamp[] {
  return paths.map((path) => {
    const stats = statSync(path, {throwIfNoEntry: false});
    if (stats === undefined || !stats.isFile()) return {path, size: 0, ino: 0, mtimeMs: 0, hash: null};
    const hash = stats.mtimeMs > notAfter ? 'modified-during-build' : sha256Hex(readFileSync(path));
    return {path, size: stats.size, ino: stats.ino, mtimeMs: stats.mtimeMs, hash};
  });
}

/**
 * Whether every file still has the content its stamp recorded. Reads only files whose stat changed or whose
 * stamp is racy relative to `hashedAt` (when the stamps were taken).
 */
export function stampsMatch(stamps: readonly FileStamp[], hashedAt: number): boolean {
  for (const stamp of stamps) {
    const stats = statSync(stamp.path, {throwIfNoEntry: false});
    if (stats === undefined || !stats.isFile()) {
      if (stamp.hash === null) continue;
      return false;
    }
    if (stamp.hash === null) return false;
    const sameStat = stats.size === stamp.size && stats.ino === stamp.ino && stats.mtimeMs === stamp.mtimeMs;
    if (sameStat && stamp.mtimeMs < hashedAt - racyWindowMs) continue;
    if (stats.size !== stamp.size) return false;
    if (sha256Hex(readFileSync(stamp.path)) !== stamp.hash) return false;
  }
  return true;
}
