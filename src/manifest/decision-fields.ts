/**
 * The fields of one decision configuration (`decisions.<name>` in workflow.yaml, `overrides.decisions.<name>` and
 * the settings given to decision() in code) and the one check each field's value must pass. The manifest reports
 * a problem with its source location; decision() throws it for overrides and code settings.
 */
import type {ErrorCode} from '../errors/index.ts';

/** Every decision setting, in the order the documentation lists them. */
export const decisionFields = ['provider', 'model', 'baseUrl', 'options'] as const;
export type DecisionField = (typeof decisionFields)[number];

/** Providers with an implementation. The hosted provider the specification mentions has no public API yet. */
export const decisionProviders = ['ollama'] as const;
export type DecisionProvider = (typeof decisionProviders)[number];

export interface DecisionFieldProblem {
  code: ErrorCode;
  /** Completes "The decision setting 'x' in <source> ...": a predicate and the fix, as whole sentences. */
  problem: string;
}

/** What is wrong with `value` for the decision setting `field`, or undefined when it is valid. */
export function checkDecisionField(field: string, value: unknown): DecisionFieldProblem | undefined {
  if (!(decisionFields as readonly string[]).includes(field)) {
    return {
      code: 'STRATOS_DECISION_CONFIG_INVALID',
      problem: `is not a decision setting. Known settings: ${decisionFields.join(', ')}.`,
    };
  }
  switch (field as DecisionField) {
    case 'provider':
      if (typeof value === 'string' && (decisionProviders as readonly string[]).includes(value)) return;
      return {
        code: 'STRATOS_DECISION_PROVIDER_UNSUPPORTED',
        problem: `names the provider ${show(value)}, which Stratos does not implement; use provider: ollama with an installed Ollama model (the hosted decision provider has no public API to implement yet).`,
      };
    case 'model':
      if (typeof value === 'string' && value.trim() !== '') return;
      return {
        code: 'STRATOS_DECISION_CONFIG_INVALID',
        problem: `must be an installed model name such as "qwen3:8b"; got ${show(value)}.`,
      };
    case 'baseUrl':
      if (typeof value === 'string' && isHttpUrl(value)) return;
      return {
        code: 'STRATOS_DECISION_CONFIG_INVALID',
        problem: `must be an http or https URL such as "http://127.0.0.1:11434"; got ${show(value)}.`,
      };
    case 'options':
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
      return {
        code: 'STRATOS_DECISION_CONFIG_INVALID',
        problem: `must be a mapping of Ollama model options passed as they are (such as {temperature: 0}); got ${show(value)}.`,
      };
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return typeof value;
  }
}
