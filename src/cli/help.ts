/**
 * Help, as text and as data (`--help --json`): root help (a one-screen command summary, a divider, then the bundled
 * skill with its absolute path), group help (`stratos mcp`) and command help (usage, options, one example).
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {packageDirectory, packageVersion} from '../internal/package-info.ts';
import type {CommandSpec} from './commands/command.ts';
import {commandGroups, commands, listGroupCommands, setupCommands} from './commands/table.ts';
import {formatFlag, formatUsage} from './usage.ts';

/** The bundled skill that root help prints after the command summary. */
export const skillPath = join(packageDirectory, 'skills', 'stratos-workflows', 'SKILL.md');

/** The line between the command summary and the skill: the summary above it fits one terminal screen. */
export const skillDivider = `${'─'.repeat(24)} The Stratos authoring skill (SKILL.md) ${'─'.repeat(24)}`;

const helpOption = {name: 'help', flag: '--help', description: 'Show this help.'};

/** One entry of the root help: a top-level command, or a group with its actions. */
interface HelpEntry {
  name: string;
  summary: string;
  actions?: string[];
}

/** Root help as data: the summary's sections, every command with its usage, and the bundled skill. */
export function readRootHelp() {
  const visible = commands.filter((c) => !c.hidden);
  const topLevel = visible.filter((c) => !c.name.includes(' ') && c.summaryOmitted !== true);
  const workflows: HelpEntry[] = topLevel
    .filter((c) => !setupCommands.includes(c.name))
    .map((c) => ({name: c.name, summary: c.summary}));
  const more: HelpEntry[] = [
    ...Object.entries(commandGroups).map(([name, summary]) => ({
      name,
      summary,
      actions: listGroupCommands(name).map((c) => c.name.slice(name.length + 1)),
    })),
    ...topLevel
      .filter((c) => setupCommands.includes(c.name))
      .map((c) => ({name: c.name, summary: c.summary})),
  ];
  return {
    version: packageVersion(),
    usage: 'stratos <command> [options]',
    sections: [
      {title: 'Workflows', entries: workflows},
      {title: 'More (stratos <group> <action>)', entries: more},
    ],
    commands: visible.map(describeCommand),
    skill: {path: skillPath, text: readSkill()},
  };
}

/** Root help as text: the one-screen summary, the divider, the skill's path, then the skill itself. */
export function rootHelp(): string {
  const help = readRootHelp();
  const width = Math.max(...help.sections.flatMap((s) => s.entries.map((e) => e.name.length)));
  const lines = [
    `stratos ${help.version}: workflows that coordinate coding agents, MCP tools and ordinary functions.`,
    `Usage: ${help.usage}   (st is the same program)`,
  ];
  for (const section of help.sections) {
    lines.push('', `${section.title}:`);
    for (const entry of section.entries) {
      const actions = entry.actions === undefined ? '' : ` (${entry.actions.join(', ')})`;
      lines.push(`  ${entry.name.padEnd(width)}  ${entry.summary}${actions}`);
    }
  }
  lines.push(
    '',
    "Every command takes --json and --help; 'stratos <command> --help' shows its options and an example.",
    skillDivider,
    `Its file is ${help.skill.path} (relative references in it resolve from there).`,
    '',
  );
  return `${lines.join('\n')}\n${help.skill.text}`;
}

function readSkill(): string {
  try {
    return readFileSync(skillPath, 'utf8');
  } catch {
    return `(The bundled skill is missing at ${skillPath}; reinstall @stratoscli/stratos.)\n`;
  }
}

/** One command's help as data: name, summary, usage derived from its options, the options, its example. */
export function describeCommand(spec: CommandSpec) {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: formatUsage(spec),
    positionals: spec.positionals.map((p) => ({name: p.replace(/\?$/, ''), required: !p.endsWith('?')})),
    options: [
      ...Object.entries(spec.options).map(([name, option]) => ({
        name,
        flag: formatFlag(name, option),
        description: option.description,
        ...(option.required === true ? {required: true} : {}),
        ...(option.choices === undefined ? {} : {choices: [...option.choices]}),
      })),
      helpOption,
    ],
    examples: [spec.example],
  };
}

/** One command's help as text: summary, usage, options, example. */
export function commandHelp(spec: CommandSpec): string {
  const help = describeCommand(spec);
  return [
    help.summary,
    '',
    `Usage: ${help.usage}`,
    '',
    'Options:',
    ...help.options.map((option) => `  ${option.flag.padEnd(22)} ${option.description}`),
    '',
    'Example:',
    ...help.examples.map((example) => `  ${example}`),
    '',
  ].join('\n');
}

/** A group's help as data (`stratos mcp`): its summary and each action with its summary and usage. */
export function describeGroup(group: string) {
  return {
    group,
    summary: commandGroups[group] ?? '',
    usage: `stratos ${group} <action> [options]`,
    commands: listGroupCommands(group).map((spec) => ({
      name: spec.name,
      action: spec.name.slice(group.length + 1),
      summary: spec.summary,
      usage: formatUsage(spec),
    })),
  };
}

/** A group's help as text: its summary, usage and each action with its summary. */
export function groupHelp(group: string): string {
  const help = describeGroup(group);
  const width = Math.max(...help.commands.map((c) => c.action.length));
  return [
    `stratos ${group}: ${help.summary}.`,
    '',
    `Usage: ${help.usage}`,
    '',
    'Actions:',
    ...help.commands.map((c) => `  ${c.action.padEnd(width)}  ${c.summary}`),
    '',
    `Run 'stratos ${group} <action> --help' for its options and an example.`,
    '',
  ].join('\n');
}
