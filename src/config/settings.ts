/**
 * `~/.stratos/settings.json` (or `$STRATOS_HOME/settings.json`): user-level limits with the defaults of
 * docs/contributing/design-decisions.md "Runtime defaults". A missing file means the defaults; a malformed one is an error, never
 * silently replaced.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {isNotFound, isRecord} from '../internal/json-file.ts';

export interface StratosSettings {
  agents: {maxActive: number; maxOutstanding: number};
  retention: {perWorkspace: number; total: number};
}

export const defaultSettings: StratosSettings = {
  agents: {maxActive: 10, maxOutstanding: 100},
  retention: {perWorkspace: 10, total: 100},
};

export const SETTINGS_FILE = 'settings.json';

/**
 * Reads the settings file of a Stratos home; each field missing from the file keeps its default.
 * @throws StratosError STRATOS_SETTINGS_INVALID when the file is not JSON, not an object, or a known field has
 *   the wrong type (limits are positive integers). Unknown top-level sections are left to their owners.
 * @example
 * const {retention} = await readSettings(resolveStratosHome());
 */
export async function readSettings(home: string): Promise<StratosSettings> {
  const file = join(home, SETTINGS_FILE);
  let text: string;
  try {
    // Synchronous: read on the path of every run (internal/json-file.ts).
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return structuredClone(defaultSettings);
    throw invalid(file, `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, error);
  }
  return parseSettings(text, file);
}

/** Parses settings text; `file` names the source in messages. */
export function parseSettings(text: string, file: string): StratosSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `it is not valid JSON (${(error as Error).message})`, error);
  }
  if (!isRecord(parsed))
    throw invalid(file, 'it must hold one JSON object such as {"retention": {"total": 100}}');
  return {
    agents: readSection(parsed, 'agents', defaultSettings.agents, file),
    retention: readSection(parsed, 'retention', defaultSettings.retention, file),
  };
}

function readSection<T extends Record<string, number>>(
  parsed: Record<string, unknown>,
  section: string,
  defaults: T,
  file: string,
): T {
  const value = parsed[section];
  if (value === undefined) return {...defaults};
  if (!isRecord(value))
    throw invalid(file, `"${section}" must be an object with ${Object.keys(defaults).join(', ')}`);
  const result: Record<string, number> = {...defaults};
  for (const [key, item] of Object.entries(value)) {
    if (!(key in defaults)) {
      throw invalid(
        file,
        `"${section}.${key}" is not a known setting; known: ${Object.keys(defaults).join(', ')}`,
      );
    }
    if (typeof item !== 'number' || !Number.isInteger(item) || item < 1) {
      throw invalid(file, `"${section}.${key}" must be a positive integer; got ${JSON.stringify(item)}`);
    }
    result[key] = item;
  }
  return result as T;
}

function invalid(file: string, reason: string, cause?: unknown): StratosError {
  return new StratosError(
    'STRATOS_SETTINGS_INVALID',
    `The settings file ${file} is malformed: ${reason}. Fix or remove it.`,
    {
      ...(cause === undefined ? {} : {cause}),
      details: {file},
    },
  );
}
