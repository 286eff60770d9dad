/**
 * Agent settings: the fields of `agents.<name>` in workflow.yaml, of invocation overrides and of createAgent in
 * code, their validation, and their field-by-field resolution (code, then overrides, then workflow.yaml, then
 * these defaults). Lists replace lower-priority lists; prompt variables merge by name.
 */
import type {z} from 'zod';
import {mergeLayers} from '../config/precedence.ts';
import {isPromptReference, mergePromptReferences, type PromptReference} from '../config/prompts.ts';
import {StratosError} from '../errors/index.ts';
import {type HarnessId, harnessIds, harnessRecords, isHarnessId} from './harnesses/registry.ts';
import type {AgentEvent, AgentHooks} from './hooks.ts';
import {validateAgentSettings} from './validate-agent-settings.ts';

export {type HarnessId, harnessIds};

/** The effort levels of each harness, from the harness registry. */
export const effortLevels = Object.fromEntries(
  harnessRecords.map((record) => [record.id, record.effortLevels]),
) as {readonly [Id in HarnessId]: Extract<(typeof harnessRecords)[number], {id: Id}>['effortLevels']};
export type AgentEffort = (typeof harnessRecords)[number]['effortLevels'][number];

/** Settings that workflow.yaml and invocation overrides may hold (plain data). */
export interface AgentConfigFields {
  /** Which harness runs the conversation; default `claude-code`. */
  harness?: HarnessId;
  /** The harness's native model id; default: the harness's own default model. Not together with `models`. */
  model?: string;
  /**
   * Ordered hosted model identities (`anthropic/claude-sonnet-4-5`, `openai/gpt-5`): the first ready candidate is
   * chosen at the first execute (docs/agents.md, "Choosing a harness and model"). Not together with `model`.
   */
  models?: string[];
  /**
   * The provider serving the model: `anthropic` (Claude Code), `openai` or `azure` (Codex); default per harness.
   * `ollama` (with harness `codex` or `opencode` set explicitly) runs `model`, an installed Ollama model name.
   */
  provider?: string;
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
  /** Worktrees: a managed Git checkout for the agent (`true`, a name, or `{name?, cleanup?}`); see docs/worktrees.md. */
  worktree?: WorktreeSetting;
}

// Worktrees: the setting's shapes (validated and normalized here; the checkout itself is src/worktrees/).
export type WorktreeSetting = boolean | string | {name?: string; cleanup?: boolean};
/** The normalized worktree of an agent: `name` absent for an unnamed one; `cleanup: false` keeps the checkout. */
export interface ResolvedWorktree {
  name?: string;
  cleanup: boolean;
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
  extends Omit<AgentConfigFields, 'harness' | 'allowedMcps' | 'workingDirectory' | 'worktree'> {
  /** The explicit harness, or `claude-code`; with `models` and no explicit harness, selection replaces it. */
  harness: HarnessId;
  /** True when `models` are given without an explicit harness: the harness is chosen at the first execute. */
  harnessSelected: boolean;
  allowedMcps: string[];
  /** Absolute. */
  workingDirectory: string;
  worktree?: ResolvedWorktree;
}

const dataFields = [
  'harness',
  'model',
  'models',
  'provider',
  'effort',
  'systemPrompt',
  'allowedMcps',
  'allowedTools',
  'disallowedTools',
  'workingDirectory',
  'worktree',
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
        if (!isHarnessId(value)) fail(`must be one of ${harnessIds.join(', ')}`);
        break;
      case 'models':
        if (
          !Array.isArray(value) ||
          value.length === 0 ||
          !value.every((item) => typeof item === 'string' && item.trim() !== '')
        )
          fail('must be a non-empty list of hosted model identities such as "anthropic/claude-sonnet-4-5"');
        break;
      case 'model':
      case 'provider':
      case 'workingDirectory':
        if (typeof value !== 'string' || value.trim() === '') fail('must be a non-empty string');
        break;
      case 'effort':
        if (typeof value !== 'string') fail('must be a string such as "low" or "high"');
        break;
      case 'worktree':
        if (!isWorktreeSetting(value))
          fail(
            'must be true, false, a worktree name, or {name, cleanup} with a string name and a boolean cleanup',
          );
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
 * @throws StratosError STRATOS_AGENT_CONFIG_INVALID, STRATOS_AGENT_MCP_UNKNOWN, STRATOS_AGENT_TOOL_UNKNOWN
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
  const harnessSelected = merged.models !== undefined && merged.harness === undefined;
  // The merged settings pass the same validator build and `list` use; the first issue is the error.
  const [issue] = validateAgentSettings({
    name: options.name,
    settings: merged as Record<string, unknown>,
    mcpServers: options.mcpServers,
    source: `agent '${options.name}'`,
    codeFields: true,
  });
  if (issue !== undefined) {
    throw new StratosError(issue.code, issue.message, {details: {agent: options.name, field: issue.field}});
  }
  const allowedMcps = merged.allowedMcps ?? [...options.mcpServers];
  const {allowedMcps: _a, workingDirectory, harness: _h, worktree, ...rest} = merged;
  const resolvedWorktree = normalizeWorktree(worktree);
  return {
    ...rest,
    ...(resolvedWorktree === undefined ? {} : {worktree: resolvedWorktree}),
    harness,
    harnessSelected,
    allowedMcps,
    workingDirectory:
      workingDirectory === undefined ? options.invocationDirectory : options.resolvePath(workingDirectory),
  };
}

function isWorktreeSetting(value: unknown): value is WorktreeSetting {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, entry]) =>
      entry === undefined ||
      (key === 'name' && typeof entry === 'string' && entry.trim() !== '') ||
      (key === 'cleanup' && typeof entry === 'boolean'),
  );
}

function normalizeWorktree(value: WorktreeSetting | undefined): ResolvedWorktree | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {cleanup: true};
  if (typeof value === 'string') return {name: value, cleanup: true};
  return {...(value.name === undefined ? {} : {name: value.name}), cleanup: value.cleanup ?? true};
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
