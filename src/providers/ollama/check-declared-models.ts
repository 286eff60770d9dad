/**
 * The build-time check of local models an explicit `stratos build` runs before dependency installation and MCP
 * preparation: each decision configuration's Ollama model must be installed and advertise `decision` or
 * `completion`. A server that cannot be reached leaves a warning (the build does not depend on it); a model the
 * server says is missing or incapable is an error, located at the model field.
 */
import type {Diagnostic, SourceLocation} from '../../errors/index.ts';
import {isStratosError} from '../../errors/index.ts';
import {requireModelCapabilities} from './model-capabilities.ts';
import {createOllamaClient} from './ollama-client.ts';

/** How long one metadata read may take at build before the check is given up with a warning. */
const checkTimeoutMs = 5000;

export async function checkDeclaredDecisionModels(
  decisions: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  locate: (path: string[]) => Promise<SourceLocation>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const [name, config] of Object.entries(decisions)) {
    const model = config.model;
    if (typeof model !== 'string' || (config.provider !== undefined && config.provider !== 'ollama'))
      continue;
    const baseUrl = typeof config.baseUrl === 'string' ? config.baseUrl : undefined;
    try {
      const client = createOllamaClient({...(baseUrl === undefined ? {} : {baseUrl}), env});
      await requireModelCapabilities(
        client,
        model,
        {anyOf: ['decision', 'completion'], purpose: `decision '${name}'`},
        AbortSignal.timeout(checkTimeoutMs),
      );
    } catch (error) {
      const timedOut = (error as {name?: unknown})?.name === 'TimeoutError';
      if (!timedOut && !isStratosError(error)) throw error;
      const unreachable = timedOut || (isStratosError(error) && error.code === 'STRATOS_OLLAMA_UNREACHABLE');
      const reason = error instanceof Error ? error.message : String(error);
      diagnostics.push({
        code: isStratosError(error) ? error.code : 'STRATOS_OLLAMA_UNREACHABLE',
        severity: unreachable ? 'warning' : 'error',
        message: unreachable
          ? `The model '${model}' of decisions.${name} was not checked: ${reason}`
          : reason,
        location: await locate(['decisions', name, 'model']),
      });
    }
  }
  return diagnostics;
}
