/**
 * The configuration of an agent as attributes of its `agent <name>` span: OpenTelemetry GenAI names where the
 * conventions have one (`gen_ai.agent.name`, `gen_ai.provider.name`, `gen_ai.request.model`,
 * `gen_ai.system_instructions`, `gen_ai.output.type`), `stratos.agent.*` for the rest. Credentials are not part of
 * an agent's configuration; the recorder redacts every value anyway.
 */
import type {TelemetryAttributes} from '../telemetry/index.ts';
import {findHarness} from './harnesses/registry.ts';
import type {HarnessId, ResolvedAgentSettings} from './settings.ts';
import type {ToolSelection} from './tool-names.ts';

/** What the conversation runs on: the fixed settings, or selection's choice once made. */
export interface AgentTarget {
  harness: HarnessId;
  provider: string | undefined;
  model: string | undefined;
}

/**
 * The settings every execute of the agent records when it starts: harness, provider, model, effort, the MCP
 * servers and built-in tools it may use, its working directory and whether it answers with a structured result.
 */
export function describeAgentConfiguration(options: {
  name: string;
  settings: Readonly<ResolvedAgentSettings>;
  /** Undefined while model preferences have not chosen one yet (selection records its choice itself). */
  target: AgentTarget | undefined;
  tools: ToolSelection | undefined;
  structured: boolean;
}): TelemetryAttributes {
  const {settings, target, tools} = options;
  return {
    'gen_ai.agent.name': options.name,
    'stratos.agent.name': options.name,
    ...(target === undefined
      ? {}
      : {
          'stratos.agent.harness': target.harness,
          'gen_ai.provider.name': target.provider ?? findHarness(target.harness).providers[0],
          'gen_ai.request.model': target.model,
        }),
    'stratos.agent.models': settings.models,
    'stratos.agent.effort': settings.effort,
    'gen_ai.output.type': options.structured ? 'json' : 'text',
    'stratos.agent.allowed_mcps': [...settings.allowedMcps],
    'stratos.agent.allowed_tools':
      settings.allowedTools === undefined ? undefined : [...settings.allowedTools],
    'stratos.agent.disallowed_tools':
      settings.disallowedTools === undefined ? undefined : [...settings.disallowedTools],
    'stratos.agent.removed_tools': tools === undefined ? undefined : [...tools.removed],
    'stratos.agent.working_directory': settings.workingDirectory,
  };
}

/** A checkout the agent works in (worktrees), as its harness was given it. */
export interface AgentWorktree {
  name: string;
  path: string;
  branch: string;
  directory: string;
}

/**
 * What the native session was started with, known once it started: the system prompt as the harness got it
 * (the worktree notice included) and the worktree the agent works in.
 */
export function describeAgentSession(options: {
  systemPrompt: string | undefined;
  worktree: AgentWorktree | undefined;
}): TelemetryAttributes {
  const {systemPrompt, worktree} = options;
  return {
    'gen_ai.system_instructions':
      systemPrompt === undefined ? undefined : JSON.stringify([{type: 'text', content: systemPrompt}]),
    ...(worktree === undefined
      ? {}
      : {
          'stratos.agent.working_directory': worktree.directory,
          'stratos.agent.worktree.name': worktree.name,
          'stratos.agent.worktree.path': worktree.path,
          'stratos.agent.worktree.branch': worktree.branch,
        }),
  };
}
