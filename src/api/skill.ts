/**
 * `stratos skill install | status | uninstall`: user-level links from agents' skills folders to this package's
 * bundled `skills/stratos-workflows/`, with ownership records under STRATOS_HOME. No project scope, no registry,
 * no agent settings are changed, and installing guidance adds no execution harness.
 */
import {join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {packageDirectory} from '../internal/package-info.ts';
import {
  bundledSkillName,
  getSkillStatus,
  type InstallSkillResult,
  installSkill,
  isSkillAgentId,
  type SkillAgentId,
  type SkillStatusResult,
  skillAgentIds,
  type UninstallSkillResult,
  uninstallSkill,
} from '../skill/index.ts';

export type {InstallSkillResult, SkillAgentId, SkillStatusResult, UninstallSkillResult};
export {skillAgentIds};

export interface SkillCommandOptions {
  /** Comma-separated agent names (`claude-code,codex`), or undefined with `all`. */
  agent?: string | undefined;
  all?: boolean | undefined;
  env: NodeJS.ProcessEnv;
  /** The bundled skill directory; default this package's `skills/stratos-workflows`. */
  bundle?: string | undefined;
}

/** This package's bundled skill directory. */
export function bundledSkillDirectory(): string {
  return join(packageDirectory, 'skills', bundledSkillName);
}

export function installBundledSkill(options: SkillCommandOptions): Promise<InstallSkillResult> {
  const agents = selectSkillAgents(options, 'install', true);
  return installSkill({agents, env: options.env, bundle: options.bundle ?? bundledSkillDirectory()});
}

/** Status of every agent unless `agent` names some. */
export function getBundledSkillStatus(options: SkillCommandOptions): Promise<SkillStatusResult> {
  const agents = selectSkillAgents(options, 'status', false);
  return getSkillStatus({agents, env: options.env, bundle: options.bundle ?? bundledSkillDirectory()});
}

export function uninstallBundledSkill(options: SkillCommandOptions): Promise<UninstallSkillResult> {
  const agents = selectSkillAgents(options, 'uninstall', true);
  return uninstallSkill({agents, env: options.env, bundle: options.bundle ?? bundledSkillDirectory()});
}

/** `--agent a,b` or `--all`: exactly one of them for install and uninstall; status defaults to all agents. */
export function selectSkillAgents(
  options: Pick<SkillCommandOptions, 'agent' | 'all'>,
  action: string,
  required: boolean,
): SkillAgentId[] {
  const names = skillAgentIds.join(', ');
  if (options.agent !== undefined && options.all === true) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `'stratos skill ${action}' takes --agent <names> or --all, not both.`,
    );
  }
  if (options.agent === undefined) {
    if (options.all === true || !required) return [...skillAgentIds];
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `'stratos skill ${action}' needs --agent <names> (comma-separated: ${names}) or --all. Nothing was changed.`,
    );
  }
  const selected: SkillAgentId[] = [];
  for (const raw of options.agent.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (!isSkillAgentId(name)) {
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `Unknown agent '${name}' for 'stratos skill ${action}'. The agents are ${names}; pass one or more of them comma-separated, or --all.`,
        {details: {agent: name, agents: [...skillAgentIds]}},
      );
    }
    if (!selected.includes(name)) selected.push(name);
  }
  if (selected.length === 0) {
    throw new StratosError('STRATOS_CLI_USAGE', `--agent needs at least one agent name (${names}).`);
  }
  return selected;
}
