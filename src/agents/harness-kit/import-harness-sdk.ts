/**
 * An adapter's import of its harness SDK (and its ~400 MB binary package), done lazily when a session starts so
 * that importing `@stratoscli/stratos` loads neither; a missing package is a clear error with the install command.
 */
import {StratosError} from '../../errors/index.ts';

/** The SDK facts of one harness (its folder's `sdk.ts`, which its registry record also reads). */
export interface HarnessSdk {
  readonly title: string;
  readonly sdkPackage: string;
  readonly install: string;
}

/**
 * Imports a harness SDK; a missing package becomes STRATOS_AGENT_HARNESS_MISSING.
 * @throws StratosError STRATOS_AGENT_HARNESS_MISSING
 */
export async function importHarnessSdk<T>(
  harness: string,
  sdk: HarnessSdk,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      const {sdkPackage, install, title} = sdk;
      throw new StratosError(
        'STRATOS_AGENT_HARNESS_MISSING',
        `The ${harness} harness (${title}) needs the package ${sdkPackage}, which is not installed. Install it next to @stratoscli/stratos: '${install}' (add -g when Stratos is installed globally).`,
        {cause: error, details: {harness, package: sdkPackage, install}},
      );
    }
    throw error;
  }
}
