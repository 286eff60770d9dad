/**
 * The agents `stratos skill` installs for, and where each one's real binary reads user-level skills from.
 * Checked against the binaries (see docs/skill.md): Claude Code 2.1.332 reads `<config dir>/skills`, Codex 0.163.0
 * reads `$HOME/.agents/skills` (its documented user location; it also reads the older `$CODEX_HOME/skills`),
 * OpenCode 1.18.33 reads `<XDG config>/opencode/skills`.
 */
import {homedir} from 'node:os';
import {join, resolve} from 'node:path';

export const skillAgentIds = ['claude-code', 'codex', 'opencode'] as const;

export type SkillAgentId = (typeof skillAgentIds)[number];

/** The name of the bundled skill, which is also the name of the link in each skills folder. */
export const bundledSkillName = 'stratos-workflows';

export interface SkillFolder {
  agent: SkillAgentId;
  /** The product name, for messages. */
  label: string;
  /** The agent's user-level skills folder (absolute). */
  folder: string;
  /** How the folder was found: the environment variable that set it, or the default. */
  source: string;
}

const labels: Record<SkillAgentId, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
};

export function isSkillAgentId(value: string): value is SkillAgentId {
  return (skillAgentIds as readonly string[]).includes(value);
}

/** The user-level skills folder of `agent` under the given environment (HOME and the agent's own variables). */
export function resolveSkillFolder(agent: SkillAgentId, env: NodeJS.ProcessEnv): SkillFolder {
  const home = nonEmpty(env.HOME) ?? homedir();
  const label = labels[agent];
  if (agent === 'claude-code') {
    const configDir = nonEmpty(env.CLAUDE_CONFIG_DIR);
    return configDir === undefined
      ? {agent, label, folder: join(home, '.claude', 'skills'), source: '~/.claude/skills'}
      : {agent, label, folder: join(resolve(configDir), 'skills'), source: '$CLAUDE_CONFIG_DIR/skills'};
  }
  if (agent === 'codex') {
    return {agent, label, folder: join(home, '.agents', 'skills'), source: '~/.agents/skills'};
  }
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  return xdg === undefined
    ? {agent, label, folder: join(home, '.config', 'opencode', 'skills'), source: '~/.config/opencode/skills'}
    : {
        agent,
        label,
        folder: join(resolve(xdg), 'opencode', 'skills'),
        source: '$XDG_CONFIG_HOME/opencode/skills',
      };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
