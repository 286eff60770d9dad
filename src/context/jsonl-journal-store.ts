/**
 * The local journal store: one JSON line per completed step in `journal.jsonl` of the run folder, appended in
 * order and flushed to disk (fdatasync) before `append` resolves. A line torn by a crash is ignored on read.
 * Synchronous calls, like the run's other small files (AGENTS.md "The cached paths"): one small write and a flush,
 * with no thread-pool round trip.
 */
import {closeSync, fdatasyncSync, openSync, readFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import type {JournalEntry, JournalStore} from './step-journal.ts';

export const JOURNAL_FILE = 'journal.jsonl';

/**
 * The JSON-lines journal of the run folder `directory`. The file is created on the first append; `initial` entries
 * (a resumed run's journal, which the new run carries on) are written first, with one flush.
 */
export function openJsonlJournalStore(
  directory: string,
  initial: readonly JournalEntry[] = [],
): JournalStore {
  const path = join(directory, JOURNAL_FILE);
  if (initial.length > 0)
    appendJournalLine(path, initial.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  return {
    read: async () => readJournalFile(path),
    append: async (entry) => appendJournalLine(path, `${JSON.stringify(entry)}\n`),
  };
}

/** Appends lines and flushes them; each call is whole, so concurrent steps never interleave their lines. */
function appendJournalLine(path: string, line: string): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    writeSync(fd, line);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Every complete entry of a journal file; none when the file does not exist. */
export function readJournalFile(path: string): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // The last line of a run killed mid-write: that step did not complete.
    }
  }
  return entries;
}
