// Live: OpenCode on a real local Ollama, when OLLAMA_HOST answers and has the model OLLAMA_LIVE_MODEL (default
// qwen3:8b) installed.
import {defineLiveChecks} from './live-checks.ts';

const model = process.env.OLLAMA_LIVE_MODEL ?? 'qwen3:8b';

async function findOllama(): Promise<string | undefined> {
  const host = process.env.OLLAMA_HOST ?? '';
  if (host === '') return 'OLLAMA_HOST not set';
  const base = /^https?:\/\//.test(host) ? host : `http://${host}`;
  try {
    const response = await fetch(new URL('/api/tags', base), {signal: AbortSignal.timeout(5000)});
    const {models} = (await response.json()) as {models?: {name: string}[]};
    return (models ?? []).some((entry) => entry.name === model)
      ? undefined
      : `Ollama at ${host} does not have ${model} (set OLLAMA_LIVE_MODEL or run 'ollama pull ${model}')`;
  } catch (error) {
    return `Ollama at ${host} does not answer (${(error as Error).message})`;
  }
}

defineLiveChecks({
  label: 'opencode (ollama)',
  harness: 'opencode',
  provider: 'ollama',
  model,
  unavailable: await findOllama(),
});
