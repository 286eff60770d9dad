import {readSettings} from '../config/settings.ts';
import {type Diagnostic, isStratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {applyWorkspaceRetention} from '../telemetry/retention/apply-retention.ts';
import {planRetention} from '../telemetry/retention/plan-retention.ts';
import {type HostOptions, resolveHost} from './host.ts';

/**
 * Applies the retention limits of settings.json to the home's runs. Never throws and never waits for the cleaner:
 * a malformed settings file, a failed removal or a failed spawn comes back as a warning. A workspace a few runs over
 * its limit (each run adds one) is trimmed here, which costs less than a process; a larger cleanup goes to the
 * detached cleaner. The spawning module (and `node:child_process`) loads only then.
 */
export async function startRunRetention(options: HostOptions = {}): Promise<Diagnostic[]> {
  const host = resolveHost(options);
  try {
    const {retention} = await readSettings(host.home);
    const plan = await planRetention(host.home, retention);
    if (plan.kind === 'workspace') {
      const {failures} = await applyWorkspaceRetention(host.home, plan.workspace, retention);
      return failures.slice(0, 1).map(({path, error}) => ({
        code: 'STRATOS_TELEMETRY_ARTIFACT_FAILED',
        severity: 'warning',
        message: `Old runs were not cleaned up: ${path} could not be removed: ${describeError(error)}`,
      }));
    }
    if (plan.kind === 'cleaner') {
      const {startRetentionCleaner} = await import('../telemetry/retention/start-retention-cleaner.ts');
      startRetentionCleaner(host.home, retention);
    }
    return [];
  } catch (error) {
    const code = isStratosError(error) ? error.code : 'STRATOS_TELEMETRY_ARTIFACT_FAILED';
    const reason = describeError(error);
    return [{code, severity: 'warning', message: `Old runs were not cleaned up: ${reason}`}];
  }
}
