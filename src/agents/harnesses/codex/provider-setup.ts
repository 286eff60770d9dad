/**
 * The Codex model provider an agent runs on, as native Codex configuration (design philosophy, "Respect the native
 * authentication boundary"):
 * - `openai` (the default): Codex's own OpenAI provider with an API key or native login; when OPENAI_BASE_URL is
 *   set it becomes a Responses API provider at that URL, with the same key or login.
 * - `azure`: Azure OpenAI through the Responses API (`<resource>/openai/v1`), authenticated by the environment key
 *   AZURE_OPENAI_API_KEY. OpenAI keys, OPENAI_BASE_URL and the saved ChatGPT login are kept away from Codex, so a
 *   failing Azure setup fails instead of reaching another account.
 * - `ollama`: the user's Ollama server (OLLAMA_HOST, else http://127.0.0.1:11434) through its Responses API at
 *   `<endpoint>/v1`, with no key; hosted credentials are removed from the environment and Codex gets a CODEX_HOME
 *   of its own, so neither a key nor a saved login can reach a hosted account.
 */
import {AuthenticationError, StratosError} from '../../../errors/index.ts';
import {resolveOllamaEndpoint} from '../../../providers/ollama/resolve-endpoint.ts';
import {withoutHostedCredentials} from '../../harness-kit/agent-environment.ts';

export interface CodexProviderSetup {
  /** `--config` entries selecting the provider. */
  config: Record<string, unknown>;
  /** The environment Codex runs with. */
  env: Record<string, string>;
  /** The API key the SDK passes (`CODEX_API_KEY`), when the provider uses one. */
  apiKey?: string;
  /** True when Codex must not read the login saved in CODEX_HOME (it gets a home of its own). */
  isolateHome: boolean;
}

/** Environment variables by which another OpenAI account could be reached. */
const openAiCredentials = ['OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL'];

/**
 * Resolves the provider setup from the harness environment.
 * @throws AuthenticationError STRATOS_AUTH_REQUIRED when the Azure key or endpoint is missing; StratosError
 *   STRATOS_AGENT_CONFIG_INVALID for a provider Codex does not serve.
 */
export function resolveCodexProvider(
  provider: string | undefined,
  env: Readonly<Record<string, string>>,
): CodexProviderSetup {
  if (provider === undefined || provider === 'openai') {
    const baseUrl = env.OPENAI_BASE_URL;
    if (baseUrl !== undefined && baseUrl !== '') {
      return {
        config: {
          model_provider: 'stratos_openai',
          model_providers: {
            stratos_openai: {
              name: 'OpenAI (OPENAI_BASE_URL)',
              base_url: baseUrl,
              // The key in the environment, else the native login (`codex login`, auth.json in CODEX_HOME).
              ...((env.OPENAI_API_KEY ?? '') === ''
                ? {requires_openai_auth: true}
                : {env_key: 'OPENAI_API_KEY'}),
              wire_api: 'responses',
            },
          },
        },
        env: {...env},
        isolateHome: false,
      };
    }
    return {
      config: {},
      env: {...env},
      ...(env.OPENAI_API_KEY === undefined ? {} : {apiKey: env.OPENAI_API_KEY}),
      isolateHome: false,
    };
  }
  if (provider === 'azure') {
    const key = env.AZURE_OPENAI_API_KEY ?? '';
    const baseUrl = resolveAzureBaseUrl(env);
    if (key === '' || baseUrl === undefined) {
      const missing = [
        key === '' ? 'AZURE_OPENAI_API_KEY' : undefined,
        baseUrl === undefined ? 'AZURE_OPENAI_BASE_URL (or AZURE_RESOURCE_NAME)' : undefined,
      ].filter((name) => name !== undefined);
      throw new AuthenticationError(
        'STRATOS_AUTH_REQUIRED',
        `The Codex Azure provider needs ${missing.join(' and ')}. Set them for the Azure OpenAI resource; an OpenAI key or ChatGPT login is never used instead. Nothing was sent to a model.`,
        {details: {harness: 'codex', provider: 'azure', missing}},
      );
    }
    const clean = Object.fromEntries(
      Object.entries(env).filter(([name]) => !openAiCredentials.includes(name)),
    );
    return {
      config: {
        model_provider: 'stratos_azure',
        model_providers: {
          stratos_azure: {
            name: 'Azure OpenAI',
            base_url: baseUrl,
            env_key: 'AZURE_OPENAI_API_KEY',
            wire_api: 'responses',
          },
        },
      },
      env: clean,
      isolateHome: true,
    };
  }
  if (provider === 'ollama') {
    // The user's own server through its OpenAI-compatible Responses API (`<endpoint>/v1/responses`), with no key.
    const endpoint = resolveOllamaEndpoint({env});
    return {
      config: {
        model_provider: 'stratos_ollama',
        model_providers: {
          stratos_ollama: {
            name: `Ollama (${endpoint.url})`,
            base_url: `${endpoint.url}/v1`,
            wire_api: 'responses',
          },
        },
      },
      env: withoutHostedCredentials(env),
      isolateHome: true,
    };
  }
  throw new StratosError(
    'STRATOS_AGENT_CONFIG_INVALID',
    `Codex does not serve the provider '${provider}'; use openai, azure or ollama.`,
    {details: {harness: 'codex', provider}},
  );
}

/** AZURE_OPENAI_BASE_URL as given, else `https://<AZURE_RESOURCE_NAME>.openai.azure.com/openai/v1`. */
export function resolveAzureBaseUrl(env: Readonly<Record<string, string>>): string | undefined {
  const explicit = env.AZURE_OPENAI_BASE_URL ?? '';
  if (explicit !== '') return explicit.replace(/\/+$/, '');
  const resource = env.AZURE_RESOURCE_NAME ?? '';
  return resource === '' ? undefined : `https://${resource}.openai.azure.com/openai/v1`;
}
