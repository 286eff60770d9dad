/**
 * Capability checks over what the server itself advertises (`/api/show` capabilities): a model is usable for a
 * purpose only when it is installed and lists what that purpose needs. Nothing is downloaded, warmed or changed.
 */
import {StratosError} from '../../errors/index.ts';
import type {OllamaClient, OllamaModelInfo} from './ollama-client.ts';

/**
 * The advertised metadata of `model`, which must list at least one of `anyOf` (all of `allOf`).
 * @throws StratosError STRATOS_OLLAMA_MODEL_NOT_INSTALLED, STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING,
 *   STRATOS_OLLAMA_UNREACHABLE, STRATOS_OLLAMA_REQUEST_FAILED
 */
export async function requireModelCapabilities(
  client: OllamaClient,
  model: string,
  need: {allOf?: readonly string[]; anyOf?: readonly string[]; purpose: string},
  signal?: AbortSignal,
): Promise<OllamaModelInfo> {
  const info = await client.showModel(model, signal);
  if (info === undefined) {
    throw new StratosError(
      'STRATOS_OLLAMA_MODEL_NOT_INSTALLED',
      `The Ollama model '${model}' is not installed on ${client.endpoint.url}. Stratos never downloads models; if you want it, run 'ollama pull ${model}' yourself, or choose an installed model ('ollama list').`,
      {details: {model, endpoint: client.endpoint.url}},
    );
  }
  const missing = (need.allOf ?? []).filter((capability) => !info.capabilities.includes(capability));
  const anyOf = need.anyOf ?? [];
  const noneOf = anyOf.length > 0 && !anyOf.some((capability) => info.capabilities.includes(capability));
  if (missing.length > 0 || noneOf) {
    const lacks = [...missing, ...(noneOf ? [anyOf.join(' or ')] : [])].join(' and ');
    throw new StratosError(
      'STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING',
      `The Ollama model '${model}' on ${client.endpoint.url} does not advertise ${lacks}, which ${need.purpose} needs; it lists ${info.capabilities.length === 0 ? 'no capabilities' : info.capabilities.join(', ')}. Choose a model that does.`,
      {details: {model, lacks: [...missing, ...(noneOf ? anyOf : [])], capabilities: info.capabilities}},
    );
  }
  return info;
}
