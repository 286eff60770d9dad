/** Root help (command summary, then the bundled skill with its absolute path) and short per-command help. */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {packageDirectory, packageVersion} from '../internal/package-info.ts';
import type {CommandSpec} from './command.ts';
import {commands} from './commands/table.ts';

export const skillPath = join(packageDirectory, 'skills', 'stratos-workflows', 'SKILL.md');

export function rootHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = [
    `stratos ${packageVersion()}: workflows that coordinate coding agents, MCP tools and ordinary functions.`,
    '',
    'Usage: stratos <command> [options]   (st is the same program)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Every command takes --json (one result envelope on stdout) and --help. Run 'stratos <command> --help' for its options.",
    '',
    `The authoring skill follows; its file is ${skillPath} (relative references in it resolve from there).`,
    '',
  ];
  let skill: string;
  try {
    skill = readFileSync(skillPath, 'utf8');
  } catch {
    skill = `(The bundled skill is missing at ${skillPath}; reinstall @stratoscli/stratos.)\n`;
  }
  return `${lines.join('\n')}\n${skill}`;
}

export function commandHelp(spec: CommandSpec): string {
  const options = Object.entries(spec.options).map(([name, option]) => {
    const flag = `--${name}${option.value === undefined ? '' : ` <${option.value}>`}`;
    return `  ${flag.padEnd(22)} ${option.description}`;
  });
  return [
    `${spec.summary}`,
    '',
    `Usage: ${spec.usage}`,
    '',
    'Options:',
    ...options,
    `  ${'--help'.padEnd(22)} Show this help.`,
    '',
  ].join('\n');
}
