/**
 * The Ollama decision provider: the model must be installed and advertise `decision` (asked through Ollama's own
 * decision API) or `completion` (asked through a schema-constrained chat request with log-probabilities). One
 * retry policy covers the metadata read and the request; the metadata of a model is read once per process.
 */
import {
  createOllamaClient,
  type OllamaModelInfo,
  requireModelCapabilities,
} from '../providers/ollama/index.ts';
import {askWithLogprobs} from './ollama-logprobs.ts';
import {askSystemOne} from './ollama-system-one.ts';
import type {ProviderRequest, ProviderResult} from './provider-result.ts';
import {type AttemptRecord, requestWithRetries} from './request-policy.ts';

/** `systemone`: Ollama's decision API; `logprobs`: probabilities Stratos reads from token log-probabilities. */
export type DecisionMethod = 'systemone' | 'logprobs';

export interface OllamaDecisionResult extends ProviderResult {
  method: DecisionMethod;
  endpoint: string;
}

const modelInfo = new Map<string, OllamaModelInfo>();

export async function askOllama(
  request: ProviderRequest,
  options: {
    signal: AbortSignal;
    onAttempt: (record: AttemptRecord) => void;
    onMethod?: (method: DecisionMethod, endpoint: string) => void;
  },
): Promise<OllamaDecisionResult> {
  const client = createOllamaClient({
    ...(request.settings.baseUrl === undefined ? {} : {baseUrl: request.settings.baseUrl}),
    env: process.env,
  });
  const key = `${client.endpoint.url}\n${request.settings.model}`;
  let method: DecisionMethod | undefined;
  const result = await requestWithRetries(
    async (signal) => {
      let info = modelInfo.get(key);
      if (info === undefined) {
        info = await requireModelCapabilities(
          client,
          request.settings.model,
          {anyOf: ['decision', 'completion'], purpose: 'a decision'},
          signal,
        );
        modelInfo.set(key, info);
      }
      if (method === undefined) {
        method = info.capabilities.includes('decision') ? 'systemone' : 'logprobs';
        options.onMethod?.(method, client.endpoint.url);
      }
      return method === 'systemone'
        ? askSystemOne(client, request, signal)
        : askWithLogprobs(client, request, info, signal);
    },
    {label: request.label, signal: options.signal, onAttempt: options.onAttempt},
  );
  return {...result, method: method!, endpoint: client.endpoint.url};
}
