/** The one Ollama client and its capability checks, shared by agents and decisions. */

export {checkDeclaredAgentModels, checkDeclaredDecisionModels} from './check-declared-models.ts';
export {requireModelCapabilities} from './model-capabilities.ts';
export {
  type ChatRequest,
  type ChatResponse,
  createOllamaClient,
  type OllamaClient,
  type OllamaModelInfo,
  type OllamaModelSummary,
  type SystemOneRequest,
  type SystemOneResponse,
} from './ollama-client.ts';
export {defaultOllamaUrl, type OllamaEndpoint, resolveOllamaEndpoint} from './resolve-endpoint.ts';
