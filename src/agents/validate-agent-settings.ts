/**
 * The one validator of an agent configuration, shared by createAgent (which throws the first issue) and by build
 * and `list` diagnostics (which report every issue at its source location). It checks what can be known without
 * starting a harness: field types, the harness id, effort for that harness, MCP server names, built-in tool names,
 * and (given the workflow directory) that a system prompt's file or template exists.
 */
import {existsSync} from 'node:fs';
import {isAbsolute, resolve} from 'node:path';
import {isPromptReference} from '../config/prompts.ts';
import type {ErrorCode} from '../errors/codes.ts';
import {isStratosError, StratosError} from '../errors/index.ts';
import {
  defaultHarnessId,
  findHarness,
  type HarnessRecord,
  harnessIds,
  harnessRecords,
  isHarnessId,
} from './harnesses/registry.ts';
import {resolveToolSelection} from './tool-names.ts';
import {isWorktreeSetting} from './worktree-setting.ts';

/** One problem of an agent configuration. */
export interface AgentSettingsIssue {
  /** STRATOS_AGENT_CONFIG_INVALID, STRATOS_AGENT_MCP_UNKNOWN, STRATOS_AGENT_TOOL_UNKNOWN or STRATOS_PROMPT_FILE_MISSING. */
  code: ErrorCode;
  /** The setting it is about (`harness`, `effort`, `allowedMcps`, `allowedTools`, `systemPrompt`, ...). */
  field: string;
  /** A whole sentence that names the agent or source and says the fix. */
  message: string;
}

export interface ValidateAgentSettingsOptions {
  /** The agent's configuration name (`reviewer`), used in messages. */
  name: string;
  /** The settings as written: one `agents.<name>` entry of workflow.yaml, an override, or merged settings. */
  settings: Readonly<Record<string, unknown>>;
  /** The names declared in `mcp.servers` of workflow.yaml. */
  mcpServers: readonly string[];
  /** Where the settings come from, in messages; default `workflow.yaml agents.<name>`. */
  source?: string;
  /** The workflow directory: when given, a system prompt `{file}` or `{template}` must exist there. */
  directory?: string;
  /** Accept the code-only fields (outputSchema, hooks, onEvent) as createAgent does; default false. */
  codeFields?: boolean;
}

/**
 * Validates one agent configuration and returns every issue found (an empty list when it is valid); it never
 * throws and starts nothing. Build and `list` call it for each `agents.<name>` of workflow.yaml and map an
 * issue's `field` to the source location of that key; createAgent runs the same checks on its merged settings.
 * @example
 * const issues = validateAgentSettings({name: 'reviewer', settings: manifest.agents.reviewer,
 *   mcpServers: Object.keys(manifest.mcp?.servers ?? {}), directory: workflowDirectory});
 * for (const issue of issues) report(issue.code, issue.message, locationOf(['agents', 'reviewer', issue.field]));
 */
export function validateAgentSettings(options: ValidateAgentSettingsOptions): AgentSettingsIssue[] {
  const {name, settings, mcpServers} = options;
  const source = options.source ?? `workflow.yaml agents.${name}`;
  const issues: AgentSettingsIssue[] = [];
  const invalid = new Set<string>();
  for (const [field, value] of Object.entries(settings)) {
    try {
      validateAgentLayer({[field]: value}, source, {codeFields: options.codeFields ?? false});
    } catch (error) {
      if (!isStratosError(error)) throw error;
      issues.push({code: error.code, field, message: error.message});
      invalid.add(field);
    }
  }
  if (settings.model !== undefined && settings.models !== undefined) {
    issues.push({
      code: 'STRATOS_AGENT_CONFIG_INVALID',
      field: 'models',
      message: `Agent '${name}' sets both model (a native id for its harness) and models (ordered hosted identities); keep one.`,
    });
  }
  const harness = settings.harness === undefined ? defaultHarnessId : settings.harness;
  issues.push(...validateHarnessSettings(name, settings, source, invalid));
  const local = settings.provider === 'ollama';
  if (local) issues.push(...validateLocalProvider(name, settings, invalid));
  if (
    !local &&
    typeof settings.provider === 'string' &&
    settings.harness !== undefined &&
    isHarnessId(harness)
  ) {
    const served = findHarness(harness).providers;
    if (served.length > 0 && !served.includes(settings.provider)) {
      issues.push({
        code: 'STRATOS_AGENT_CONFIG_INVALID',
        field: 'provider',
        message: `Agent '${name}' names the provider '${settings.provider}', which ${harness} does not serve here; use ${served.join(' or ')}.`,
      });
    }
  }
  // With model preferences and no explicit harness, the harness is chosen at the first execute: effort and tool
  // names are checked against each candidate's harness then.
  const chosenLater = settings.models !== undefined && settings.harness === undefined;
  if (!chosenLater && isHarnessId(harness)) {
    const levels = findHarness(harness).effortLevels;
    const effort = settings.effort;
    const own = levels.length === 0; // a harness with no levels (ACP) refuses effort in its own settings check
    if (typeof effort === 'string' && !local && !own && !invalid.has('effort') && !levels.includes(effort)) {
      issues.push({
        code: 'STRATOS_AGENT_CONFIG_INVALID',
        field: 'effort',
        message: `Agent '${name}' has effort '${effort}', which ${harness} does not support; use one of ${levels.join(', ')}.`,
      });
    }
    for (const list of ['allowedTools', 'disallowedTools'] as const) {
      if (invalid.has(list) || !Array.isArray(settings[list])) continue;
      for (const tool of settings[list] as string[]) {
        try {
          resolveToolSelection(
            harness,
            list === 'allowedTools' ? [tool] : undefined,
            list === 'disallowedTools' ? [tool] : undefined,
            name,
          );
        } catch (error) {
          if (!isStratosError(error)) throw error;
          issues.push({code: error.code, field: list, message: error.message});
        }
      }
    }
  }
  const selected = settings.allowedMcps;
  if (Array.isArray(selected) && !invalid.has('allowedMcps')) {
    const unknown = (selected as string[]).filter((server) => !mcpServers.includes(server));
    if (unknown.length > 0) {
      issues.push({
        code: 'STRATOS_AGENT_MCP_UNKNOWN',
        field: 'allowedMcps',
        message: `Agent '${name}' selects the MCP server${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `'${s}'`).join(', ')} in allowedMcps, but mcp.servers of workflow.yaml declares ${mcpServers.length === 0 ? 'none' : mcpServers.map((s) => `'${s}'`).join(', ')}.`,
      });
    }
  }
  const prompt = settings.systemPrompt;
  if (options.directory !== undefined && !invalid.has('systemPrompt') && typeof prompt === 'object') {
    const path =
      (prompt as {file?: unknown; template?: unknown}).file ?? (prompt as {template?: unknown}).template;
    if (typeof path === 'string') {
      const absolute = isAbsolute(path) ? path : resolve(options.directory, path);
      if (!existsSync(absolute)) {
        issues.push({
          code: 'STRATOS_PROMPT_FILE_MISSING',
          field: 'systemPrompt',
          message: `The system prompt of agent '${name}' names the file ${absolute}, which does not exist. Prompt files resolve relative to the workflow directory.`,
        });
      }
    }
  }
  return issues;
}

/**
 * `provider: ollama` (design philosophy, "Keep local models local and user-controlled"): an explicit harness that
 * serves local providers (Codex or OpenCode), one installed model named as Ollama names it, and no effort.
 */
function validateLocalProvider(
  name: string,
  settings: Readonly<Record<string, unknown>>,
  invalid: ReadonlySet<string>,
): AgentSettingsIssue[] {
  const issues: AgentSettingsIssue[] = [];
  const records: readonly HarnessRecord[] = harnessRecords;
  const serving = records.filter((record) => record.localProviders.includes('ollama'));
  const choices = serving.map((record) => `harness: ${record.id}`).join(' or ');
  if (settings.harness === undefined) {
    issues.push({
      code: 'STRATOS_AGENT_CONFIG_INVALID',
      field: 'provider',
      message: `Agent '${name}' uses provider 'ollama' without an explicit harness; Ollama agents need ${choices}.`,
    });
  } else if (
    isHarnessId(settings.harness) &&
    !findHarness(settings.harness).localProviders.includes('ollama')
  ) {
    issues.push({
      code: 'STRATOS_AGENT_CONFIG_INVALID',
      field: 'harness',
      message: `Agent '${name}' uses provider 'ollama' with harness '${settings.harness}', which does not run local Ollama models; set ${choices}.`,
    });
  }
  if (settings.models !== undefined && !invalid.has('models')) {
    issues.push({
      code: 'STRATOS_AGENT_CONFIG_INVALID',
      field: 'models',
      message: `Agent '${name}' uses provider 'ollama' with models (hosted identities); name one installed Ollama model with model instead, such as model: qwen3:8b.`,
    });
  } else if (settings.model === undefined) {
    issues.push({
      code: 'STRATOS_AGENT_CONFIG_INVALID',
      field: 'model',
      message: `Agent '${name}' uses provider 'ollama' without a model; set model to an installed Ollama model name or tag as 'ollama list' shows it, such as qwen3:8b.`,
    });
  }
  if (settings.effort !== undefined && !invalid.has('effort')) {
    issues.push({
      code: 'STRATOS_AGENT_EFFORT_UNSUPPORTED',
      field: 'effort',
      message: `Agent '${name}' sets effort '${String(settings.effort)}' on provider 'ollama'; hosted reasoning levels are not translated for local models, which use their own defaults. Remove effort.`,
    });
  }
  return issues;
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
/** Fields only one harness takes (its registry record's `settings`), checked by that record. */
const harnessFields: readonly string[] = (harnessRecords as readonly HarnessRecord[]).flatMap(
  (record) => record.settings?.fields ?? [],
);

/** The settings only some harness takes: checked by that harness's record, refused with any other harness. */
function validateHarnessSettings(
  name: string,
  settings: Readonly<Record<string, unknown>>,
  source: string,
  invalid: Set<string>,
): AgentSettingsIssue[] {
  const record: HarnessRecord | undefined = isHarnessId(settings.harness)
    ? findHarness(settings.harness)
    : undefined;
  const own = record?.settings?.fields ?? [];
  const issues: AgentSettingsIssue[] = harnessFields
    .filter((field) => settings[field] !== undefined && !own.includes(field))
    .map((field) => {
      const owners = harnessRecords.filter((r: HarnessRecord) => r.settings?.fields.includes(field));
      return {
        code: 'STRATOS_AGENT_CONFIG_INVALID',
        field,
        message: `Agent '${name}' sets ${field}, which only harness ${owners.map((r) => `'${r.id}'`).join(' or ')} takes; set harness: ${owners[0]!.id} or remove ${field}.`,
      };
    });
  if (record?.settings !== undefined) issues.push(...record.settings.validate(settings, name, source));
  for (const issue of issues) invalid.add(issue.field);
  return issues;
}

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
    if (harnessFields.includes(field)) continue;
    if (!(dataFields as readonly string[]).includes(field)) {
      const known = [...dataFields, ...harnessFields, ...(options.codeFields ? codeOnlyFields : [])];
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
