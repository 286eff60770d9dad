/**
 * The authored files of a workflow folder as a run saw them (relative path → SHA-256): what a resume compares
 * before replaying a journal that those files produced. Build output, dependencies, generated wrappers and dot
 * folders are not authored.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {sha256Hex} from '../internal/hash.ts';

const skipped = new Set(['node_modules', 'build', '.generated']);

/** Hashes every authored file under `directory` (at most 2,000 files). */
export function fingerprintAuthoredFiles(directory: string): Record<string, string> {
  const files: Record<string, string> = {};
  const pending = [directory];
  let count = 0;
  while (pending.length > 0 && count < 2000) {
    const folder = pending.pop()!;
    for (const entry of readdirSync(folder, {withFileTypes: true})) {
      if (entry.name.startsWith('.') || skipped.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        files[relative(directory, path).split('\\').join('/')] = sha256Hex(readFileSync(path));
        count++;
      }
    }
  }
  return files;
}

/** Files added, removed or changed between two fingerprints, sorted. */
export function listChangedFiles(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
