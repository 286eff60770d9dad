/**
 * Agent settings: the fields of `agents.<name>` in workflow.yaml, of invocation overrides and of createAgent in
 * code, and their field-by-field resolution (code, then overrides, then workflow.yaml, then these defaults),
 * checked by the one validator (./validate-agent-settings.ts). Lists replace lower-priority lists; prompt
 * variables merge by name.
 */
import type {z} from 'zod';
import {mergeLayers} from '../config/precedence.ts';
import {mergePromptReferences, type PromptReference} from '../config/prompts.ts';
import {StratosError} from '../errors/index.ts';
import type {AgentEvent, AgentHooks} from './harness-kit/hooks.ts';
import {defaultHarnessId, type HarnessId, harnessIds, harnessRecords} from './harnesses/registry.ts';
import {validateAgentLayer, validateAgentSettings} from './validate-agent-settings.ts';
import {normalizeWorktree, type ResolvedWorktree, type WorktreeSetting} from './worktree-setting.ts';

export {type HarnessId, harnessIds};

/** The effort levels of each harness, from the harness registry. */
export const effortLevels = Object.fromEntries(
  harnessRecords.map((record) => [record.id, record.effortLevels]),
) as {readonly [Id in HarnessId]: Extract<(typeof harnessRecords)[number], {id: Id}>['effortLevels']};
export type AgentEffort = (typeof harnessRecords)[number]['effortLevels'][number];

/** Settings that workflow.yaml and invocation overrides may hold (plain data). */
export interface AgentConfigFields {
  /** Which harness runs the conversation; default: the registry's default harness (Claude Code). */
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
  /** The agent program of a harness that starts one (the Agent Client Protocol harness): its command. */
  command?: string;
  /** Its arguments. */
  args?: string[];
  /** Variables added to its environment; values may hold `{env:NAME}` and `{file:path}` references. */
  env?: Record<string, string>;
}

export type {ResolvedWorktree, WorktreeSetting};

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
  const harness = merged.harness ?? defaultHarnessId;
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
