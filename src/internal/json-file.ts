import {readFileSync} from 'node:fs';

/**
 * Reads and parses a JSON file; `undefined` when the file does not exist. Parse errors throw.
 *
 * The files Stratos keeps as JSON are small and local (records, caches, settings), and most are read on the path
 * of every command: one synchronous read is a single system call, where the promise API pays four round trips
 * through the thread pool (open, stat, read, close), a fraction of a millisecond each in a fresh process.
 */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  return JSON.parse(text) as unknown;
}

export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as {code?: unknown}).code === 'ENOENT';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
