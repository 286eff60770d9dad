/**
 * Decision settings and their precedence, the same as agents': code settings, then the invocation's
 * `overrides.decisions.<name>`, then workflow.yaml `decisions.<name>`, then the defaults (provider ollama; the
 * endpoint from OLLAMA_HOST or localhost). Every layer passes the field check the manifest applies at build.
 */
import {mergeLayers} from '../config/precedence.ts';
import type {ExecutionContext} from '../context/execution-context.ts';
import {StratosError} from '../errors/index.ts';
import {checkDecisionField, type DecisionProvider} from '../manifest/decision-fields.ts';

/** Settings of a decision: the fields of `decisions.<name>` in workflow.yaml. */
export interface DecisionSettings {
  /** Only `ollama` exists; the default. */
  provider?: DecisionProvider;
  /** An installed Ollama model name or tag, as `ollama list` shows it. Required somewhere. */
  model?: string;
  /** The Ollama server; default OLLAMA_HOST, else http://127.0.0.1:11434. */
  baseUrl?: string;
  /** Ollama model options (`temperature`, `num_ctx` ...) passed as they are; none by default. */
  options?: Record<string, unknown>;
}

/** Settings given in code: a workflow.yaml configuration name to start from, and fields that win over it. */
export type DecisionConfig = DecisionSettings & {name?: string};

export interface ResolvedDecisionSettings {
  /** The configuration name, or `default`. */
  name: string;
  provider: DecisionProvider;
  model: string;
  baseUrl?: string;
  options?: Record<string, unknown>;
}

/**
 * Resolves the settings of one decision call.
 * @throws StratosError STRATOS_DECISION_CONFIG_UNKNOWN, STRATOS_DECISION_CONFIG_INVALID,
 *   STRATOS_DECISION_PROVIDER_UNSUPPORTED
 */
export function resolveDecisionSettings(
  context: Pick<ExecutionContext, 'workflow' | 'overrides'>,
  config: string | DecisionConfig | undefined,
): ResolvedDecisionSettings {
  const declared = context.workflow.manifest.decisions ?? {};
  if (config !== undefined && typeof config !== 'string' && (typeof config !== 'object' || config === null)) {
    throw new StratosError(
      'STRATOS_DECISION_CONFIG_INVALID',
      `decision() config must be a workflow.yaml decision name or an object of settings; got ${typeof config}.`,
    );
  }
  const name = typeof config === 'string' ? config : (config?.name ?? 'default');
  if (typeof config === 'string' && declared[name] === undefined) {
    const known = Object.keys(declared);
    throw new StratosError(
      'STRATOS_DECISION_CONFIG_UNKNOWN',
      `Workflow '${context.workflow.name}' has no decision configuration '${name}' in workflow.yaml${known.length > 0 ? `; it declares ${known.map((k) => `'${k}'`).join(', ')}` : ''}. Add decisions.${name} or pass the settings in code.`,
      {details: {decision: name, known}},
    );
  }
  const code = typeof config === 'object' ? withoutName(config) : undefined;
  const layers = [
    {source: 'decision() config', settings: code},
    {source: `overrides.decisions.${name}`, settings: context.overrides.decisions?.[name]},
    {source: `workflow.yaml decisions.${name}`, settings: declared[name]},
  ];
  for (const layer of layers) {
    for (const [field, value] of Object.entries(layer.settings ?? {})) {
      if (value === undefined) continue;
      const problem = checkDecisionField(field, value);
      if (problem !== undefined) {
        throw new StratosError(
          problem.code,
          `The decision setting '${field}' in ${layer.source} ${problem.problem}`,
          {
            details: {decision: name, source: layer.source, field},
          },
        );
      }
    }
  }
  const merged = mergeLayers(layers.map((layer) => layer.settings)) as DecisionSettings;
  if (merged.model === undefined) {
    throw new StratosError(
      'STRATOS_DECISION_CONFIG_INVALID',
      `Decision '${name}' has no model. Set decisions.${name}.model in workflow.yaml (an installed Ollama model such as "qwen3:8b") or pass config: {model} to decision().`,
      {details: {decision: name}},
    );
  }
  return {
    name,
    provider: merged.provider ?? 'ollama',
    model: merged.model,
    ...(merged.baseUrl === undefined ? {} : {baseUrl: merged.baseUrl}),
    ...(merged.options === undefined ? {} : {options: merged.options}),
  };
}

function withoutName(config: DecisionConfig): Record<string, unknown> {
  const {name: _name, ...rest} = config;
  return rest;
}
