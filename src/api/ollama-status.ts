/**
 * The Ollama part of `stratos provider status`: the selected endpoint (OLLAMA_HOST, else
 * http://127.0.0.1:11434), the server's version, and each installed model with the capabilities and context length
 * it advertises (`/api/tags`, `/api/show`), plus whether it can serve an agent (`completion` and `tools`).
 * Metadata only: nothing is installed, pulled, loaded or changed; guidance says what the user may do.
 */
import {isStratosError} from '../errors/index.ts';
import {createOllamaClient, type OllamaClient} from '../providers/ollama/index.ts';

/** How long each metadata read may take. */
const readTimeoutMs = 5000;

export interface OllamaModelStatus {
  name: string;
  /** As `/api/show` lists them: `completion`, `tools`, `thinking`, `vision`, `embedding`, `decision` ... */
  capabilities: string[];
  /** The context length the model metadata advertises; the context the server loads may be smaller. */
  contextLength?: number;
  parameterSize?: string;
  quantization?: string;
  /** Advertises `completion` and `tools`, which an Ollama agent needs. */
  agentReady: boolean;
  /** The metadata could not be read (the model is still listed). */
  error?: {code: string; message: string};
}

export interface OllamaStatus {
  /** The endpoint agents and `stratos provider status` use; undefined when OLLAMA_HOST is invalid. */
  endpoint?: string;
  source?: 'OLLAMA_HOST' | 'default';
  reachable: boolean;
  version?: string;
  models: OllamaModelStatus[];
  /** Always present: advertised context is not the loaded context. */
  contextNote: string;
  /** What to do next when the server is not running, has no models or none an agent can use. */
  guidance?: string;
  error?: {code: string; message: string};
}

const contextNote =
  'Context lengths are what each model advertises; the context the server actually loads (its num_ctx or OLLAMA_CONTEXT_LENGTH) may be smaller.';

/** Reads the Ollama server's metadata; never throws. */
export async function readOllamaStatus(env: Readonly<Record<string, string>>): Promise<OllamaStatus> {
  let client: OllamaClient;
  try {
    client = createOllamaClient({env});
  } catch (error) {
    return {
      reachable: false,
      models: [],
      contextNote,
      error: describe(error),
      guidance:
        'Set OLLAMA_HOST to the address of your Ollama server, such as http://127.0.0.1:11434, or unset it.',
    };
  }
  const where = {endpoint: client.endpoint.url, source: client.endpoint.source as 'OLLAMA_HOST' | 'default'};
  let version: string;
  try {
    version = await client.version(AbortSignal.timeout(readTimeoutMs));
  } catch (error) {
    return {
      ...where,
      reachable: false,
      models: [],
      contextNote,
      error: describe(error),
      guidance: `No Ollama server answered at ${client.endpoint.url}. To use local models, install Ollama yourself (https://ollama.com/download), start it with 'ollama serve', or point OLLAMA_HOST at a running server. Stratos never installs Ollama or downloads models.`,
    };
  }
  let listed: Awaited<ReturnType<OllamaClient['listModels']>>;
  try {
    listed = await client.listModels(AbortSignal.timeout(readTimeoutMs));
  } catch (error) {
    return {...where, reachable: true, version, models: [], contextNote, error: describe(error)};
  }
  const models = await Promise.all(
    listed.map(async (summary): Promise<OllamaModelStatus> => {
      const base = {
        name: summary.name,
        ...(summary.parameterSize === undefined ? {} : {parameterSize: summary.parameterSize}),
        ...(summary.quantization === undefined ? {} : {quantization: summary.quantization}),
      };
      try {
        const info = await client.showModel(summary.name, AbortSignal.timeout(readTimeoutMs));
        const capabilities = info?.capabilities ?? [];
        return {
          ...base,
          capabilities,
          ...(info?.contextLength === undefined ? {} : {contextLength: info.contextLength}),
          agentReady: capabilities.includes('completion') && capabilities.includes('tools'),
        };
      } catch (error) {
        return {...base, capabilities: [], agentReady: false, error: describe(error)};
      }
    }),
  );
  const guidance =
    models.length === 0
      ? "The server has no models installed. If you want one, pull it yourself with 'ollama pull <model>'; an agent needs a model that advertises completion and tools."
      : models.some((model) => model.agentReady)
        ? undefined
        : "No installed model advertises both completion and tools, which an Ollama agent needs; pull one yourself with 'ollama pull <model>' if you want to run agents locally.";
  return {
    ...where,
    reachable: true,
    version,
    models,
    contextNote,
    ...(guidance === undefined ? {} : {guidance}),
  };
}

function describe(error: unknown): {code: string; message: string} {
  if (isStratosError(error)) return {code: error.code, message: error.message};
  const timedOut = (error as {name?: unknown})?.name === 'TimeoutError';
  return {
    code: timedOut ? 'STRATOS_OLLAMA_UNREACHABLE' : 'STRATOS_INTERNAL',
    message: timedOut ? `The Ollama server did not answer within ${readTimeoutMs / 1000} s.` : String(error),
  };
}
