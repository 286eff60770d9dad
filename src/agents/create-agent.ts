/**
 * The agent primitive (design philosophy, "Make conversation ownership explicit"): one object is one conversation
 * of one workflow invocation. createAgent resolves and fixes its settings and registers it with the invocation;
 * the first execute initializes native resources; later calls continue the conversation (./agent-session.ts).
 */
import {resolve} from 'node:path';
import {requireExecutionContext} from '../context/execution-context.ts';
import {StratosError} from '../errors/index.ts';
import {AgentSession} from './agent-session.ts';
import type {Agent, AgentConfig} from './agent-types.ts';
import {assertHookCoverage} from './check-hook-coverage.ts';
import {type AgentSettings, resolveAgentSettings} from './settings.ts';
import {resolveToolSelection} from './tool-names.ts';

export type {Agent, AgentConfig, AgentSelection, SelectionSkip} from './agent-types.ts';

/**
 * Creates an agent from a workflow.yaml configuration name or an inline configuration. Settings resolve field by
 * field: `settings` (code), then the invocation's overrides, then workflow.yaml, then the defaults.
 * @throws StratosError STRATOS_RUNTIME_NO_CONTEXT, STRATOS_AGENT_CONFIG_UNKNOWN, STRATOS_AGENT_CONFIG_INVALID,
 *   STRATOS_AGENT_MCP_UNKNOWN, STRATOS_AGENT_TOOL_UNKNOWN.
 * @example
 * const reviewer = createAgent('reviewer', {outputSchema: z.object({approve: z.boolean().describe('')})});
 * const {approve} = await reviewer.execute({template: 'prompts/review.hbs'}, {diff});
 */
export function createAgent<Output = string>(
  nameOrConfig: string | AgentConfig<Output>,
  settings?: AgentSettings<Output>,
): Agent<Output> {
  const context = requireExecutionContext('createAgent()');
  const manifest = context.workflow.manifest;
  const named = typeof nameOrConfig === 'string';
  const name = named ? nameOrConfig : (nameOrConfig.name ?? 'agent');
  const configured = named ? manifest.agents?.[name] : undefined;
  if (named && configured === undefined) {
    const known = Object.keys(manifest.agents ?? {});
    throw new StratosError(
      'STRATOS_AGENT_CONFIG_UNKNOWN',
      `Workflow '${context.workflow.name}' has no agent configuration '${name}' in workflow.yaml${known.length > 0 ? `; it declares ${known.map((k) => `'${k}'`).join(', ')}` : ''}. Add agents.${name} or pass an inline configuration.`,
      {details: {agent: name, known}},
    );
  }
  const inline = named ? undefined : withoutName(nameOrConfig);
  const resolved = resolveAgentSettings({
    name,
    layers: [
      {
        source: `createAgent('${name}') settings`,
        settings: settings as Record<string, unknown> | undefined,
        codeFields: true,
      },
      {source: `createAgent('${name}') configuration`, settings: inline, codeFields: true},
      {
        source: `overrides.agents.${name}`,
        settings: named ? context.overrides.agents?.[name] : undefined,
        codeFields: false,
      },
      {source: `workflow.yaml agents.${name}`, settings: configured, codeFields: false},
    ],
    mcpServers: Object.keys(manifest.mcp?.servers ?? {}),
    resolvePath: (path) => resolve(context.invocationDirectory, path),
    invocationDirectory: context.invocationDirectory,
  });
  // With model preferences and no explicit harness, tools are resolved for the harness selection picks.
  const tools = resolved.harnessSelected
    ? undefined
    : resolveToolSelection(resolved.harness, resolved.allowedTools, resolved.disallowedTools, name);
  const code = {...inline, ...definedOnly(settings ?? {})} as AgentSettings<Output>;
  if (tools !== undefined) assertHookCoverage(name, resolved.harness, tools, code.hooks);
  return new AgentSession<Output>(context, name, resolved, tools, code);
}

function withoutName<T extends {name?: string}>(config: T): Record<string, unknown> {
  const {name: _name, ...rest} = config;
  return rest;
}

function definedOnly(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}
