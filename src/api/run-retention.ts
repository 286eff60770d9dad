import {readSettings} from '../config/settings.ts';
import {type Diagnostic, isStratosError} from '../errors/index.ts';
import {retentionMayApply} from '../telemetry/retention/retention-may-apply.ts';
import {type HostOptions, resolveHost} from './host.ts';

/**
 * Starts the detached retention cleaner for the home's runs with the limits of settings.json. Never throws and
 * never waits for the cleaner: a malformed settings file or a failed spawn comes back as a warning. The spawning
 * module (and `node:child_process`) loads only when a limit can be exceeded, so a cached run does not pay for it.
 */
export async function startRunRetention(options: HostOptions = {}): Promise<Diagnostic[]> {
  const host = resolveHost(options);
  try {
    const {retention} = await readSettings(host.home);
    if (await retentionMayApply(host.home, retention)) {
      const {startRetentionCleaner} = await import('../telemetry/retention/start-retention-cleaner.ts');
      startRetentionCleaner(host.home, retention);
    }
    return [];
  } catch (error) {
    const code = isStratosError(error) ? error.code : 'STRATOS_TELEMETRY_ARTIFACT_FAILED';
    const reason = error instanceof Error ? error.message : String(error);
    return [{code, severity: 'warning', message: `Old runs were not cleaned up: ${reason}`}];
  }
}
