/**
 * `stratos provider status`: for each harness and the providers it serves, whether the SDK is installed (with the
 * install command), whether authentication is configured (which source, never its value), whether the provider's
 * model catalog can be read, and what to do next; and the local Ollama server (./ollama-status.ts). Metadata only:
 * no inference, no downloads.
 */
import {
  findHarness,
  type HarnessId,
  type HarnessRecord,
  harnessIds,
  isHarnessInstalled,
} from '../agents/harnesses/registry.ts';
import {readModelCatalog} from '../agents/selection/read-model-catalog.ts';
import {isStratosError} from '../errors/index.ts';
import {readModelCatalogRevision} from '../providers/models/model-identity.ts';
import type {HostOptions} from './host.ts';
import {type OllamaStatus, readOllamaStatus} from './ollama-status.ts';
import {type ConfiguredAgentStatus, probeConfiguredAgents} from './probe-configured-agents.ts';

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
  /** For a harness whose agents name their own program (ACP): each configured agent's answer. */
  agents?: ConfiguredAgentStatus[];
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
      return {
        harness,
        package: record.sdkPackage,
        installed: isHarnessInstalled(record),
        install: record.install,
        authentication: await authenticationStatus(record, env),
        providers: await Promise.all(
          // A harness that serves any provider (OpenCode): the providers whose authentication it tells apart.
          (record.providers.length > 0 ? record.providers : record.providerAuthentication).map(
            async (provider): Promise<ProviderStatus> => {
              const own = record.providerAuthentication.includes(provider)
                ? await authenticationStatus(record, env, provider)
                : undefined;
              return {
                provider,
                ...(own === undefined ? {} : {authentication: own}),
                catalog: await catalogStatus(provider, env),
              };
            },
          ),
        ),
        ...(record.probeAgent === undefined
          ? {}
          : {agents: await probeConfiguredAgents(record, env, options.cwd ?? process.cwd())}),
      };
    }),
  );
  return {
    harnesses,
    ollama: await readOllamaStatus(env),
    modelCatalogRevision: await readModelCatalogRevision(),
  };
}

/** The harness's one authentication check, for its default provider or `provider`, as status. */
async function authenticationStatus(
  record: HarnessRecord,
  env: Record<string, string>,
  provider?: string,
): Promise<HarnessStatus['authentication']> {
  try {
    await record.checkAuthentication(env, provider);
    return {configured: true};
  } catch (error) {
    return {configured: false, guidance: isStratosError(error) ? error.message : String(error)};
  }
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

function definedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
