/**
 * The build-time check of local models an explicit `stratos build` runs before dependency installation and MCP
 * preparation: each decision configuration's Ollama model must be installed and advertise `decision` or
 * `completion`, and each Ollama agent's model `completion` and `tools`. A server that cannot be reached leaves a
 * warning (the build does not depend on it); a model the server says is missing or incapable is an error, located
 * at the model field.
 */
import type {Diagnostic, SourceLocation} from '../../errors/index.ts';
import {isStratosError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import {requireModelCapabilities} from './model-capabilities.ts';
import {createOllamaClient} from './ollama-client.ts';

/** How long one metadata read may take at build before the check is given up with a warning. */
const checkTimeoutMs = 5000;

interface DeclaredModel {
  /** `decisions.<name>` or `agents.<name>`. */
  section: 'decisions' | 'agents';
  name: string;
  model: string;
  baseUrl?: string;
  need: {allOf?: readonly string[]; anyOf?: readonly string[]; purpose: string};
}

export async function checkDeclaredDecisionModels(
  decisions: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  locate: (path: string[]) => Promise<SourceLocation>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Diagnostic[]> {
  const declared: DeclaredModel[] = [];
  for (const [name, config] of Object.entries(decisions)) {
    const model = config.model;
    if (typeof model !== 'string' || (config.provider !== undefined && config.provider !== 'ollama'))
      continue;
    const baseUrl = typeof config.baseUrl === 'string' ? config.baseUrl : undefined;
    declared.push({
      section: 'decisions',
      name,
      model,
      ...(baseUrl === undefined ? {} : {baseUrl}),
      need: {anyOf: ['decision', 'completion'], purpose: `decision '${name}'`},
    });
  }
  return checkDeclaredModels(declared, locate, env);
}

/**
 * The Ollama agents of workflow.yaml (`provider: ollama` with a `model`): installed, with `completion` and `tools`.
 * Agents use OLLAMA_HOST or the default endpoint (they have no baseUrl).
 */
export async function checkDeclaredAgentModels(
  agents: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  locate: (path: string[]) => Promise<SourceLocation>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Diagnostic[]> {
  const declared: DeclaredModel[] = [];
  for (const [name, config] of Object.entries(agents)) {
    if (config.provider !== 'ollama' || typeof config.model !== 'string') continue;
    declared.push({
      section: 'agents',
      name,
      model: config.model,
      need: {allOf: ['completion', 'tools'], purpose: `agent '${name}' (it calls tools)`},
    });
  }
  return checkDeclaredModels(declared, locate, env);
}

async function checkDeclaredModels(
  declared: readonly DeclaredModel[],
  locate: (path: string[]) => Promise<SourceLocation>,
  env: NodeJS.ProcessEnv,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const {section, name, model, baseUrl, need} of declared) {
    try {
      const client = createOllamaClient({...(baseUrl === undefined ? {} : {baseUrl}), env});
      await requireModelCapabilities(client, model, need, AbortSignal.timeout(checkTimeoutMs));
    } catch (error) {
      const timedOut = (error as {name?: unknown})?.name === 'TimeoutError';
      if (!timedOut && !isStratosError(error)) throw error;
      const unreachable = timedOut || (isStratosError(error) && error.code === 'STRATOS_OLLAMA_UNREACHABLE');
      const reason = describeError(error);
      diagnostics.push({
        code: isStratosError(error) ? error.code : 'STRATOS_OLLAMA_UNREACHABLE',
        severity: unreachable ? 'warning' : 'error',
        message: unreachable
          ? `The model '${model}' of ${section}.${name} was not checked: ${reason}`
          : reason,
        location: await locate([section, name, 'model']),
      });
    }
  }
  return diagnostics;
}
