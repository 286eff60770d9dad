import {readFile} from 'node:fs/promises';

/** Reads and parses a JSON file; `undefined` when the file does not exist. Parse errors throw. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
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
