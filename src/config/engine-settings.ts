/**
 * The scale-out engine of `settings.json` (`"engine"`), or of `STRATOS_ENGINE_DATABASE_URL` for CI: queued runs and
 * workers on DBOS Transact and PostgreSQL (docs/scale-out.md). Without either, Stratos runs everything locally
 * and nothing of the engine is loaded. The database URL is only ever written as an `{env:}` or `{file:}`
 * reference, so no credential is stored in clear; its resolved value is a registered secret.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {registerCredentialSecret, StratosError} from '../errors/index.ts';
import {isNotFound, isRecord} from '../internal/json-file.ts';
import {hasReferences, resolveReferences} from './references.ts';
import {SETTINGS_FILE} from './settings.ts';

/** The environment variable that configures the engine in CI: the database URL itself (never written down). */
export const ENGINE_DATABASE_URL_ENV = 'STRATOS_ENGINE_DATABASE_URL';

/** The queue a run goes to when `--queue` names none. */
export const DEFAULT_QUEUE = 'default';

/** The queue name rule (DBOS accepts more; Stratos keeps names that read well in a shell and a URL). */
export const queueNamePattern = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export interface QueueSettings {
  /** Runs of this queue running at once across every worker; default unlimited. */
  concurrency?: number;
}

export interface EngineSettings {
  engine: 'dbos';
  /** The database URL as written: an `{env:}`/`{file:}` reference (settings) or `{env:STRATOS_ENGINE_DATABASE_URL}`. */
  databaseUrl: string;
  queues: Record<string, QueueSettings>;
  /** The settings file (for messages and `{file:}` references), or the environment variable. */
  source: string;
}

/**
 * The configured engine, or undefined when none is: the settings file's `engine` section, else
 * `STRATOS_ENGINE_DATABASE_URL`. Cheap: it reads one small file and resolves nothing.
 * @throws StratosError STRATOS_SETTINGS_INVALID for a malformed `engine` section, or a database URL written in clear.
 */
export function readEngineSettings(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): EngineSettings | undefined {
  const file = join(home, SETTINGS_FILE);
  const section = readSection(file);
  if (section === undefined) {
    if (env[ENGINE_DATABASE_URL_ENV] === undefined || env[ENGINE_DATABASE_URL_ENV] === '') return undefined;
    return {
      engine: 'dbos',
      databaseUrl: `{env:${ENGINE_DATABASE_URL_ENV}}`,
      queues: {},
      source: ENGINE_DATABASE_URL_ENV,
    };
  }
  if (!isRecord(section))
    throw invalid(
      file,
      '"engine" must be an object such as {"type": "dbos", "databaseUrl": "{env:DATABASE_URL}"}',
    );
  for (const key of Object.keys(section)) {
    if (!['type', 'databaseUrl', 'queues'].includes(key))
      throw invalid(file, `"engine.${key}" is not a known setting; known: type, databaseUrl, queues`);
  }
  if (section.type !== 'dbos')
    throw invalid(file, `"engine.type" must be "dbos"; got ${JSON.stringify(section.type)}`);
  const url = section.databaseUrl;
  if (typeof url !== 'string' || url.trim() === '')
    throw invalid(file, '"engine.databaseUrl" must be a reference such as "{env:STRATOS_DATABASE_URL}"');
  if (!hasReferences(url)) {
    throw invalid(
      file,
      '"engine.databaseUrl" holds a URL in clear; write it as a reference such as "{env:STRATOS_DATABASE_URL}" or "{file:~/.stratos/database-url}" so no credential is stored in the settings',
    );
  }
  return {engine: 'dbos', databaseUrl: url, queues: readQueues(section.queues, file), source: file};
}

/**
 * The database URL the engine connects with. The URL and its password are registered as secrets: no output or
 * artifact of this process can show them.
 * @throws StratosError STRATOS_CONFIG_ENV_MISSING and the other reference codes of `resolveReferences`.
 */
export async function resolveEngineDatabaseUrl(settings: EngineSettings, home: string): Promise<string> {
  const url = await resolveReferences(settings.databaseUrl, {
    directory: home,
    field: `the engine's databaseUrl (${settings.source})`,
  });
  try {
    const parsed = new URL(url);
    registerCredentialSecret(decodeURIComponent(parsed.password));
    registerCredentialSecret(parsed.password);
  } catch {
    // Not a URL (a key=value connection string): the whole value is registered already.
  }
  return url;
}

function readSection(file: string): unknown {
  let text: string;
  try {
    // Synchronous: read on the path of every run (internal/json-file.ts).
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw invalid(file, `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  // A file that is not JSON is reported by the settings reader itself; the engine only needs its own section.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isRecord(parsed) ? parsed.engine : undefined;
}

function readQueues(value: unknown, file: string): Record<string, QueueSettings> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw invalid(file, '"engine.queues" must map queue names to {"concurrency": n}');
  const queues: Record<string, QueueSettings> = {};
  for (const [name, queue] of Object.entries(value)) {
    if (!queueNamePattern.test(name))
      throw invalid(
        file,
        `"engine.queues.${name}" is not a queue name; use lowercase letters, digits, '.', '_' and '-'`,
      );
    if (!isRecord(queue))
      throw invalid(file, `"engine.queues.${name}" must be an object such as {"concurrency": 4}`);
    const settings: QueueSettings = {};
    for (const [key, item] of Object.entries(queue)) {
      if (key !== 'concurrency')
        throw invalid(file, `"engine.queues.${name}.${key}" is not a known setting; known: concurrency`);
      if (typeof item !== 'number' || !Number.isInteger(item) || item < 1)
        throw invalid(
          file,
          `"engine.queues.${name}.concurrency" must be a positive integer; got ${JSON.stringify(item)}`,
        );
      settings.concurrency = item;
    }
    queues[name] = settings;
  }
  return queues;
}

function invalid(file: string, reason: string): StratosError {
  return new StratosError(
    'STRATOS_SETTINGS_INVALID',
    `The settings file ${file} is malformed: ${reason}. Fix or remove it.`,
    {
      details: {file},
    },
  );
}
