/**
 * The local journal store: one JSON line per completed step in `journal.jsonl` of the run folder, appended in
 * order and flushed to disk (fdatasync) before `append` resolves. A line torn by a crash is ignored on read.
 */
import {open, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {JournalEntry, JournalStore} from './step-journal.ts';

export const JOURNAL_FILE = 'journal.jsonl';

/** The JSON-lines journal of the run folder `directory`. The file is created on the first append. */
export function openJsonlJournalStore(directory: string): JournalStore {
  const path = join(directory, JOURNAL_FILE);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    read: () => readJournalFile(path),
    append: (entry) => {
      const line = `${JSON.stringify(entry)}\n`;
      const written = queue.then(async () => {
        const file = await open(path, 'a', 0o600);
        try {
          await file.appendFile(line, 'utf8');
          await file.datasync();
        } finally {
          await file.close();
        }
      });
      queue = written.catch(() => {});
      return written;
    },
  };
}

/** Every complete entry of a journal file; none when the file does not exist. */
export async function readJournalFile(path: string): Promise<JournalEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
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
