/** A command's usage line, derived from its declared positionals and options so that it is written only once. */
import type {CommandSpec, OptionSpec} from './commands/command.ts';

/**
 * `stratos run <workflow> [--input <json> | --input-file <path>] [--json]`: positionals (`[<x>]` when optional),
 * then the options in declaration order (the `oneOf` group where its first member is declared), `--json` last.
 */
export function formatUsage(spec: CommandSpec): string {
  const words = [`stratos ${spec.name}`];
  for (const positional of spec.positionals) {
    words.push(positional.endsWith('?') ? `[<${positional.slice(0, -1)}>]` : `<${positional}>`);
  }
  const group = spec.oneOf;
  const shown = Object.entries(spec.options).filter(
    ([name, option]) => !option.aliasOfTarget && name !== 'json',
  );
  for (const [name, option] of shown) {
    if (group?.options.includes(name)) {
      if (name !== group.options.find((member) => spec.options[member] !== undefined)) continue;
      const members = group.options.map((member) => formatFlag(member, spec.options[member]!)).join(' | ');
      words.push(group.required ? `(${members})` : `[${members}]`);
      continue;
    }
    const flag = formatFlag(name, option);
    words.push(option.required === true ? flag : `[${flag}]`);
  }
  if (spec.options.json !== undefined) words.push('[--json]');
  return words.join(' ');
}

/** `--force`, or `--limit <n>` for an option that takes a value. */
export function formatFlag(name: string, option: OptionSpec): string {
  if (option.type === 'boolean') return `--${name}`;
  return option.valueOptional === true
    ? `--${name} [<${option.value ?? 'value'}>]`
    : `--${name} <${option.value ?? 'value'}>`;
}
