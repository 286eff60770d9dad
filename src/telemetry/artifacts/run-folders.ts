/**
 * Where a top-level run's artifacts live (docs/contributing/design-decisions.md "Run artifacts"):
 * `<home>/runs/<workspace>/<20261201T073126123Z>-<execution id>/`. The workspace folder is the invocation
 * directory's base name plus the first 8 hex digits of the SHA-256 of its absolute path, checked against the
 * `workspace.json` stored inside it; a collision or an over-long name gets a longer hash.
 */
import {mkdirSync, readFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {StratosError} from '../../errors/index.ts';
import {writeFileAtomic} from '../../internal/atomic-write.ts';
import {sha256Hex} from '../../internal/hash.ts';
import {isNotFound, isRecord} from '../../internal/json-file.ts';

export const WORKSPACE_FILE = 'workspace.json';
const MAX_BASE_LENGTH = 48;

export function runsDirectory(home: string): string {
  return join(home, 'runs');
}

/** `20261201T073126123Z`: portable in file names and sorts in time order. */
export function formatRunTime(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

export function runFolderName(startedAt: Date, executionId: string): string {
  return `${formatRunTime(startedAt)}-${executionId}`;
}

/** Candidate workspace folder names for an absolute path, in the order they are tried. */
export function workspaceNameCandidates(absolutePath: string): string[] {
  const hash = sha256Hex(absolutePath);
  const raw = basename(absolutePath) || 'root';
  const safe = raw.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  const base = safe.length > MAX_BASE_LENGTH ? safe.slice(0, MAX_BASE_LENGTH) : safe;
  // An over-long name was cut, so two long names can share a prefix: start with the longer hash.
  const lengths = safe.length > MAX_BASE_LENGTH ? [16, 32, 64] : [8, 16, 32, 64];
  return lengths.map((length) => `${base}-${hash.slice(0, length)}`);
}

/**
 * The workspace folder for `absolutePath`, created with its `workspace.json` when new.
 * @throws when the folder cannot be created (the caller reports it as an artifact failure).
 */
export async function ensureWorkspaceFolder(home: string, absolutePath: string): Promise<string> {
  for (const name of workspaceNameCandidates(absolutePath)) {
    const folder = join(runsDirectory(home), name);
    const stored = await readWorkspacePath(folder);
    if (stored === absolutePath) return folder;
    if (stored !== undefined) continue;
    mkdirSync(folder, {recursive: true});
    await writeFileAtomic(join(folder, WORKSPACE_FILE), `${JSON.stringify({path: absolutePath}, null, 2)}\n`);
    return folder;
  }
  throw new StratosError(
    'STRATOS_TELEMETRY_ARTIFACT_FAILED',
    `No free workspace folder name is left for ${absolutePath} under ${runsDirectory(home)}: every candidate folder records another path. Remove run folders you no longer need there (stratos runs clean), then run again.`,
    {details: {path: absolutePath, runsDirectory: runsDirectory(home)}},
  );
}

/** The absolute path recorded in a workspace folder; `undefined` when the folder has no record yet. */
export async function readWorkspacePath(folder: string): Promise<string | undefined> {
  let text: string;
  try {
    // Synchronous, like every small file read on the path of a command (internal/json-file.ts).
    text = readFileSync(join(folder, WORKSPACE_FILE), 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isRecord(parsed) || typeof parsed.path !== 'string') {
    throw new StratosError(
      'STRATOS_TELEMETRY_ARTIFACT_FAILED',
      `${join(folder, WORKSPACE_FILE)} has no "path" string, so Stratos cannot tell which folder its runs belong to; it was left as it is. Remove that folder or restore its workspace.json.`,
      {details: {file: join(folder, WORKSPACE_FILE)}},
    );
  }
  return parsed.path;
}
