/**
 * The readiness of an Ollama agent at its first execute, in place of a hosted authentication check: the selected
 * server (OLLAMA_HOST, else http://127.0.0.1:11434; an invalid or unreachable one fails, no other is tried) must
 * list the model and advertise both `completion` and `tools` in its `/api/show` capabilities. Only metadata is
 * read: nothing is downloaded, warmed, unloaded or reconfigured.
 */
import {StratosError} from '../errors/index.ts';
import {
  createOllamaClient,
  type OllamaModelInfo,
  requireModelCapabilities,
} from '../providers/ollama/index.ts';

/** How long the metadata read may take before the server counts as not answering. */
const readinessTimeoutMs = 30_000;

/** What an agent needs of its local model. */
export const agentCapabilities = ['completion', 'tools'] as const;

/**
 * Checks that `model` is installed on the selected Ollama server and can serve an agent.
 * @throws StratosError STRATOS_OLLAMA_ENDPOINT_INVALID, STRATOS_OLLAMA_UNREACHABLE,
 *   STRATOS_OLLAMA_MODEL_NOT_INSTALLED, STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING, STRATOS_OLLAMA_REQUEST_FAILED
 */
export async function requireOllamaAgentModel(options: {
  agent: string;
  model: string;
  env: Readonly<Record<string, string>>;
  signal: AbortSignal;
}): Promise<OllamaModelInfo> {
  const client = createOllamaClient({env: options.env});
  const timeout = AbortSignal.timeout(readinessTimeoutMs);
  try {
    return await requireModelCapabilities(
      client,
      options.model,
      {allOf: agentCapabilities, purpose: `agent '${options.agent}' (it calls tools)`},
      AbortSignal.any([options.signal, timeout]),
    );
  } catch (error) {
    if (options.signal.aborted || !timeout.aborted) throw error;
    throw new StratosError(
      'STRATOS_OLLAMA_UNREACHABLE',
      `The Ollama server at ${client.endpoint.url} (from ${client.endpoint.source}) did not answer /api/show for '${options.model}' within ${readinessTimeoutMs / 1000} s; no other endpoint was tried. Check that 'ollama serve' is running there.`,
      {cause: error, details: {endpoint: client.endpoint.url, model: options.model}},
    );
  }
}
