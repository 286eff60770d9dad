/**
 * `stratos provider status`: for each harness and the providers it serves, whether the SDK is installed (with the
 * install command), whether authentication is configured (which source, never its value), whether the provider's
 * model catalog can be read, and what to do next; and the local Ollama server (./ollama-status.ts). Metadata only:
 * no inference, no downloads.
 */
import {resolveCodexProvider} from '../agents/harnesses/codex/provider-setup.ts';
import {findHarness, type HarnessId, harnessIds} from '../agents/harnesses/registry.ts';
import {
  describeOpenCodeProviderSetup,
  hasOpenCodeProviderAuthentication,
  openCodeKeyProviders,
} from '../agents/selection/check-opencode-provider.ts';
import {readModelCatalog} from '../agents/selection/read-model-catalog.ts';
import {isStratosError} from '../errors/index.ts';
import {readModelCatalogRevision} from '../providers/models/model-identity.ts';
import type {HostOptions} from './host.ts';
import {type OllamaStatus, readOllamaStatus} from './ollama-status.ts';

export interface CatalogStatus {
  /** `reachable`: read now; `none`: the provider has no catalog Stratos can read with this setup; `error`. */
  status: 'reachable' | 'none' | 'error';
  complete?: boolean;
  modelCount?: number;
  error?: {code: string; message: string};
}

export interface ProviderStatus {
  provider: string;
  /**
   * Authentication for this provider on this harness, where it differs from the harness's: Codex's explicit Azure
   * provider (its own key and base URL), and OpenCode, which needs each provider's own key or login.
   */
  authentication?: {configured: boolean; guidance?: string};
  catalog: CatalogStatus;
}

export interface HarnessStatus {
  harness: HarnessId;
  package: string;
  installed: boolean;
  install: string;
  authentication: {configured: boolean; guidance?: string};
  providers: ProviderStatus[];
}

export interface ProviderStatusResult {
  harnesses: HarnessStatus[];
  /** The local Ollama server that `provider: ollama` agents (Codex, OpenCode) use. */
  ollama: OllamaStatus;
  /** The Models.dev revision of the shipped model identity mapping. */
  modelCatalogRevision: string;
}

/** The status of every harness; reads the environment, the harnesses' login files and provider catalogs. */
export async function readProviderStatus(options: HostOptions = {}): Promise<ProviderStatusResult> {
  const env = definedEnvironment(options.env ?? process.env);
  const harnesses = await Promise.all(
    harnessIds.map(async (harness): Promise<HarnessStatus> => {
      const record = findHarness(harness);
      let authentication: HarnessStatus['authentication'] = {configured: true};
      try {
        await record.checkAuthentication(env);
      } catch (error) {
        authentication = {configured: false, guidance: isStratosError(error) ? error.message : String(error)};
      }
      return {
        harness,
        package: record.sdkPackage,
        installed: isInstalled(record.sdkPackage),
        install: record.install,
        authentication,
        providers: await Promise.all(
          // OpenCode serves each model through the provider its identity names: the providers it is told apart for.
          (harness === 'opencode' ? openCodeKeyProviders : record.providers).map(
            async (provider): Promise<ProviderStatus> => {
              const own = await providerAuthentication(harness, provider, env);
              return {
                provider,
                ...(own === undefined ? {} : {authentication: own}),
                catalog: await catalogStatus(provider, env),
              };
            },
          ),
        ),
      };
    }),
  );
  return {
    harnesses,
    ollama: await readOllamaStatus(env),
    modelCatalogRevision: await readModelCatalogRevision(),
  };
}

/** A provider's own authentication on a harness; undefined where the harness's authentication covers it. */
async function providerAuthentication(
  harness: HarnessId,
  provider: string,
  env: Record<string, string>,
): Promise<HarnessStatus['authentication'] | undefined> {
  if (harness === 'codex' && provider === 'azure') {
    try {
      resolveCodexProvider('azure', env);
      return {configured: true};
    } catch (error) {
      return {configured: false, guidance: isStratosError(error) ? error.message : String(error)};
    }
  }
  if (harness !== 'opencode') return undefined;
  if ((await hasOpenCodeProviderAuthentication(env, provider)) === true) return {configured: true};
  const guidance = describeOpenCodeProviderSetup(provider);
  return {configured: false, ...(guidance === undefined ? {} : {guidance})};
}

async function catalogStatus(provider: string, env: Record<string, string>): Promise<CatalogStatus> {
  try {
    const catalog = await readModelCatalog(provider, {env});
    return catalog === undefined
      ? {status: 'none'}
      : {status: 'reachable', complete: catalog.complete, modelCount: catalog.models.size};
  } catch (error) {
    return {
      status: 'error',
      error: isStratosError(error)
        ? {code: error.code, message: error.message}
        : {code: 'STRATOS_INTERNAL', message: String(error)},
    };
  }
}

/** Whether the SDK package resolves from Stratos's own location, where the harness would load it. */
function isInstalled(packageName: string): boolean {
  try {
    import.meta.resolve(packageName);
    return true;
  } catch {
    return false;
  }
}

function definedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
