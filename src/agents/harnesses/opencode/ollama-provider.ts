/**
 * OpenCode on a local Ollama model: a provider of its own id at the user's server (OLLAMA_HOST, else
 * http://127.0.0.1:11434) through its OpenAI-compatible chat completions API (`<endpoint>/v1`), with no key. The
 * model is the installed Ollama name as it is (`qwen3:8b`); it is both the main and the small (title) model, and
 * `enabled_providers` leaves OpenCode no other provider, so nothing is sent to another host. Hosted credentials are
 * removed from OpenCode's environment.
 */
import {resolveOllamaEndpoint} from '../../../providers/ollama/resolve-endpoint.ts';
import {withoutHostedCredentials} from '../../harness-kit/agent-environment.ts';

/** The OpenCode provider id; not `ollama`, so no catalog entry of that name can add hosted settings. */
export const ollamaProviderId = 'stratos-ollama';

export interface OpenCodeOllamaSetup {
  model: {providerID: string; modelID: string};
  /** Merged into OPENCODE_CONFIG_CONTENT. */
  config: Record<string, unknown>;
  env: Record<string, string>;
}

export function resolveOpenCodeOllama(
  model: string,
  env: Readonly<Record<string, string>>,
): OpenCodeOllamaSetup {
  const endpoint = resolveOllamaEndpoint({env});
  return {
    model: {providerID: ollamaProviderId, modelID: model},
    config: {
      enabled_providers: [ollamaProviderId],
      provider: {
        [ollamaProviderId]: {
          npm: '@ai-sdk/openai-compatible',
          name: `Ollama (${endpoint.url})`,
          options: {baseURL: `${endpoint.url}/v1`},
          models: {[model]: {name: model, tool_call: true}},
        },
      },
    },
    env: withoutHostedCredentials(env),
  };
}
