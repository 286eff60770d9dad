/**
 * Agent settings: the fields of `agents.<name>` in workflow.yaml, of invocation overrides and of createAgent in
 * code, their validation, and their field-by-field resolution (code, then overrides, then workflow.yaml, then
 * these defaults). Lists replace lower-priority lists; prompt variables merge by name.
 */
import type {z} from 'zod';
import {mergeLayers} from '../config/precedence.ts';
import {isPromptReference, mergePromptReferences, type PromptReference} from '../config/prompts.ts';
import {StratosError} from '../errors/index.ts';
import {agentHarnessIds} from '../manifest/field-formats.ts';
import type {AgentEvent, AgentHooks} from './hooks.ts';

/** Harnesses with an adapter. OpenCode joins this list in a later release. */
export const harnessIds = agentHarnessIds;
export type HarnessId = (typeof harnessIds)[number];

export const effortLevels = {
  'claude-code': ['low', 'medium', 'high', 'xhigh', 'max'],
  codex: ['minimal', 'low', 'medium', 'high', 'xhigh'],
} as const satisfies Record<HarnessId, readonly string[]>;
export type AgentEffort = (typeof effortLevels)[HarnessId][number];

/** Settings that workflow.yaml and invocation overrides may hold (plain data). */
export interface AgentConfigFields {
  /** Which harness runs the conversation; default `claude-code`. */
  harness?: HarnessId;
  /** The harness's model id; default: the harness's own default model. */
  model?: string;
  /** Reasoning effort; default: the harness's default. */
  effort?: AgentEffort;
  /** Fixed for the conversation; resolved at the first execute. */
  systemPrompt?: PromptReference;
  /** Names from mcp.servers; default: every server of the workflow. `[]` enables none. */
  allowedMcps?: string[];
  /** Built-in tools to keep (shared or native names); default: all. Only removes tools. */
  allowedTools?: string[];
  /** Built-in tools to remove (shared or native names). */
  disallowedTools?: string[];
  /** Where the agent works, relative to the invocation directory; default: the invocation directory. */
  workingDirectory?: string;
}

/** Everything createAgent accepts in code: the data fields plus the output schema, hooks and event listener. */
export interface AgentSettings<Output = string> extends AgentConfigFields {
  /** A Zod schema: execute returns the validated structured result instead of text. */
  outputSchema?: z.ZodType<Output>;
  hooks?: AgentHooks;
  /** Called for each observation; never awaited, so observing never pauses the harness. */
  onEvent?: (event: AgentEvent) => void;
}

/** The resolved, fixed settings of one agent. */
export interface ResolvedAgentSettings
  extends Omit<AgentConfigFields, 'harness' | 'allowedMcps' | 'workingDirectory'> {
  harness: HarnessId;
  allowedMcps: string[];
  /** Absolute. */
  workingDirectory: string;
}

const dataFields = [
  'harness',
  'model',
  'effort',
  'systemPrompt',
  'allowedMcps',
  'allowedTools',
  'disallowedTools',
  'workingDirectory',
] as const;
const codeOnlyFields = ['outputSchema', 'hooks', 'onEvent'] as const;

/**
 * Checks one layer of agent settings. `source` names it in messages (`workflow.yaml agents.reviewer`).
 * @throws StratosError STRATOS_AGENT_CONFIG_INVALID
 */
export function validateAgentLayer(
  layer: Readonly<Record<string, unknown>>,
  source: string,
  options: {codeFields: boolean},
): void {
  for (const [field, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    const fail = (expected: string) => {
      throw new StratosError(
        'STRATOS_AGENT_CONFIG_INVALID',
        `The agent setting '${field}' in ${source} ${expected}; got ${describe(value)}.`,
        {details: {source, field}},
      );
    };
    if (options.codeFields && (codeOnlyFields as readonly string[]).includes(field)) {
      if (field === 'outputSchema' && !isZodSchema(value)) fail('must be a Zod schema');
      if (field === 'onEvent' && typeof value !== 'function') fail('must be a function');
      if (field === 'hooks' && (typeof value !== 'object' || value === null))
        fail('must be an object of hook functions');
      continue;
    }
    if (!(dataFields as readonly string[]).includes(field)) {
      const known = options.codeFields ? [...dataFields, ...codeOnlyFields] : dataFields;
      const hint = (codeOnlyFields as readonly string[]).includes(field)
        ? ' (it can only be set in code)'
        : '';
      throw new StratosError(
        'STRATOS_AGENT_CONFIG_INVALID',
        `${source} has the unknown agent setting '${field}'${hint}. Known settings: ${known.join(', ')}.`,
        {details: {source, field}},
      );
    }
    switch (field) {
      case 'harness':
        if (!(harnessIds as readonly unknown[]).includes(value))
          fail(`must be one of ${harnessIds.join(', ')}`);
        break;
      case 'model':
      case 'workingDirectory':
        if (typeof value !== 'string' || value.trim() === '') fail('must be a non-empty string');
        break;
      case 'effort':
        if (typeof value !== 'string') fail('must be a string such as "low" or "high"');
        break;
      case 'systemPrompt':
        if (!isPromptReference(value))
          fail('must be text, {text, variables}, {file} or {template, variables}');
        break;
      default:
        if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
          fail('must be a list of names');
    }
  }
}

export interface ResolveAgentOptions {
  name: string;
  /** Highest first: code settings, invocation overrides, workflow.yaml. */
  layers: {source: string; settings: Readonly<Record<string, unknown>> | undefined; codeFields: boolean}[];
  mcpServers: readonly string[];
  resolvePath: (path: string) => string;
  invocationDirectory: string;
}

/**
 * Resolves the fixed settings of an agent from its layers.
 * @throws StratosError STRATOS_AGENT_CONFIG_INVALID, STRATOS_AGENT_MCP_UNKNOWN
 */
export function resolveAgentSettings(options: ResolveAgentOptions): ResolvedAgentSettings {
  for (const layer of options.layers) {
    if (layer.settings !== undefined)
      validateAgentLayer(layer.settings, layer.source, {codeFields: layer.codeFields});
  }
  const merged = mergeLayers(
    options.layers.map((layer) => layer.settings),
    {mergeWith: {systemPrompt: mergePromptReferences}},
  ) as AgentConfigFields;
  const harness = merged.harness ?? 'claude-code';
  if (merged.effort !== undefined && !(effortLevels[harness] as readonly string[]).includes(merged.effort)) {
    throw new StratosError(
      'STRATOS_AGENT_CONFIG_INVALID',
      `Agent '${options.name}' has effort '${merged.effort}', which ${harness} does not support; use one of ${effortLevels[harness].join(', ')}.`,
      {details: {agent: options.name, field: 'effort'}},
    );
  }
  const allowedMcps = merged.allowedMcps ?? [...options.mcpServers];
  const unknown = allowedMcps.filter((server) => !options.mcpServers.includes(server));
  if (unknown.length > 0) {
    throw new StratosError(
      'STRATOS_AGENT_MCP_UNKNOWN',
      `Agent '${options.name}' selects the MCP server${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `'${s}'`).join(', ')} in allowedMcps, but mcp.servers of workflow.yaml declares ${options.mcpServers.length === 0 ? 'none' : options.mcpServers.map((s) => `'${s}'`).join(', ')}.`,
      {details: {agent: options.name, unknown, declared: [...options.mcpServers]}},
    );
  }
  const {allowedMcps: _a, workingDirectory, harness: _h, ...rest} = merged;
  return {
    ...rest,
    harness,
    allowedMcps,
    workingDirectory:
      workingDirectory === undefined ? options.invocationDirectory : options.resolvePath(workingDirectory),
  };
}

function isZodSchema(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as {safeParse?: unknown}).safeParse === 'function'
  );
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return typeof value;
  }
}
