/** `stratos skill install | status | uninstall`: the bundled authoring skill in agents' user skills folders. */
import {
  getBundledSkillStatus,
  type InstallSkillResult,
  installBundledSkill,
  type SkillStatusResult,
  type UninstallSkillResult,
  uninstallBundledSkill,
} from '../../api/skill.ts';
import {isStratosError} from '../../errors/index.ts';
import type {CommandContext, CommandHandler, ParsedCommand} from './command.ts';

function selection(command: ParsedCommand, context: CommandContext) {
  const agent = command.values.agent;
  return {
    agent: typeof agent === 'string' ? agent : undefined,
    all: command.values.all === true,
    env: context.env,
  };
}

export const skillInstallCommand: CommandHandler = async (command, context) => {
  try {
    const result = await installBundledSkill(selection(command, context));
    const changed = result.agents.filter((a) => a.action !== 'unchanged').length;
    return {
      ok: true,
      message: `${changed === 0 ? 'Already installed' : 'Installed'} for ${result.agents.length} ${plural(result.agents.length, 'agent')}${changed === 0 ? '' : ` (${changed} ${plural(changed, 'link')} created or re-pointed)`}`,
      data: result,
      warnings: [],
      human: `${installLines(result, context).join('\n')}\nAgents read it when they start a new session. Links Stratos made are recorded in ${result.records}.\n`,
    };
  } catch (error) {
    if (
      isStratosError(error) &&
      error.code === 'STRATOS_SKILL_INSTALL_FAILED' &&
      error.details !== undefined
    ) {
      const result = error.details as unknown as InstallSkillResult;
      return {ok: false, error, warnings: [], human: `${installLines(result, context).join('\n')}\n`};
    }
    throw error;
  }
};

export const skillStatusCommand: CommandHandler = async (command, context) => {
  const result = await getBundledSkillStatus(selection(command, context));
  const installed = result.agents.filter((a) => a.current && a.state === 'installed').length;
  const current = result.agents.filter((a) => a.current).length;
  return {
    ok: true,
    message: `Installed for ${installed} of ${current} ${plural(current, 'agent')}`,
    data: result,
    warnings: [],
    human: `${statusLines(result, context).join('\n')}\n`,
  };
};

export const skillUninstallCommand: CommandHandler = async (command, context) => {
  try {
    const result = await uninstallBundledSkill(selection(command, context));
    const removed = result.agents.filter((a) => a.action === 'removed').length;
    const {warnings, ...data} = result;
    return {
      ok: true,
      message: removed === 0 ? 'Nothing to remove' : `Removed ${removed} ${plural(removed, 'link')}`,
      data,
      warnings,
      human: `${uninstallLines(result, context).join('\n')}\n`,
    };
  } catch (error) {
    if (
      isStratosError(error) &&
      error.code === 'STRATOS_SKILL_UNINSTALL_FAILED' &&
      error.details !== undefined
    ) {
      const result = error.details as unknown as UninstallSkillResult;
      return {ok: false, error, warnings: [], human: `${uninstallLines(result, context).join('\n')}\n`};
    }
    throw error;
  }
};

function installLines(result: InstallSkillResult, context: CommandContext): string[] {
  return result.agents.map((a) => {
    const what =
      a.action === 'created'
        ? `created ${a.path} -> ${result.target}`
        : a.action === 'repointed'
          ? `re-pointed ${a.path} -> ${result.target} (was ${a.previousTarget})`
          : a.action === 'unchanged'
            ? `already installed: ${a.path}`
            : context.paint(`not installed (${a.error?.code})`, 'red');
    return `${a.agent.padEnd(12)} ${what}`;
  });
}

function statusLines(result: SkillStatusResult, context: CommandContext): string[] {
  const lines: string[] = [];
  for (const a of result.agents) {
    const state =
      a.state === 'installed' ? context.paint(a.state, 'green') : context.paint(a.state, 'yellow');
    const link = a.linkTarget === undefined ? '' : ` -> ${a.linkTarget}`;
    const where = a.current ? '' : context.paint(' (recorded earlier, outside the current folder)', 'dim');
    lines.push(`${a.agent.padEnd(12)} ${state}  ${a.path}${link}${where}`);
    if (a.fix !== undefined) lines.push(`${' '.repeat(13)}${context.paint(a.fix, 'dim')}`);
  }
  return lines;
}

function uninstallLines(result: UninstallSkillResult, context: CommandContext): string[] {
  return result.agents.map((a) => {
    const what =
      a.action === 'removed'
        ? `removed ${a.path}`
        : a.action === 'absent'
          ? `nothing at ${a.path}`
          : a.action === 'kept-foreign'
            ? `left ${a.path} (not made by Stratos)`
            : context.paint(`not removed: ${a.path} (${a.error?.code})`, 'red');
    return `${a.agent.padEnd(12)} ${what}`;
  });
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
