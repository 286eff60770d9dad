/** The configured scale-out engine of a host, for the queue commands (docs/scale-out.md). */
import {
  DEFAULT_QUEUE,
  type EngineSettings,
  queueNamePattern,
  readEngineSettings,
  resolveEngineDatabaseUrl,
} from '../config/engine-settings.ts';
import {StratosError} from '../errors/index.ts';
import type {Host} from './host.ts';

export interface ConfiguredEngine {
  settings: EngineSettings;
  /** Resolved: a registered secret, never shown. */
  databaseUrl: string;
}

/**
 * The engine of `settings.json` or `STRATOS_ENGINE_DATABASE_URL`, its database URL resolved.
 * @throws StratosError STRATOS_ENGINE_NOT_CONFIGURED when neither names one; `what` says which command asked.
 */
export async function requireEngine(host: Host, what: string): Promise<ConfiguredEngine> {
  const settings = readEngineSettings(host.home, host.env);
  if (settings === undefined) {
    throw new StratosError(
      'STRATOS_ENGINE_NOT_CONFIGURED',
      `${what} needs the scale-out engine, and none is configured. Add {"engine": {"type": "dbos", "databaseUrl": "{env:STRATOS_DATABASE_URL}"}} to ${host.home}/settings.json, or set STRATOS_ENGINE_DATABASE_URL (see docs/scale-out.md).`,
      {details: {settings: `${host.home}/settings.json`}},
    );
  }
  return {settings, databaseUrl: await resolveEngineDatabaseUrl(settings, host.home)};
}

/**
 * The queue a command names (`default` when it names none), checked against the settings.
 * @throws StratosError STRATOS_QUEUE_UNKNOWN for a queue the settings do not declare.
 */
export function resolveQueue(settings: EngineSettings, queue: string | undefined): string {
  const name = queue === undefined || queue === '' ? DEFAULT_QUEUE : queue;
  if (name === DEFAULT_QUEUE || (queueNamePattern.test(name) && settings.queues[name] !== undefined))
    return name;
  const known = [DEFAULT_QUEUE, ...Object.keys(settings.queues).filter((q) => q !== DEFAULT_QUEUE)];
  throw new StratosError(
    'STRATOS_QUEUE_UNKNOWN',
    `The queue '${name}' is not declared; known queues: ${known.join(', ')}. Declare it under "engine.queues" in ${settings.source}, or pass one of those.`,
    {details: {queue: name, known}},
  );
}
