/**
 * A command's arguments checked against its declared options. Node's parser runs without its strict mode so that
 * every mistake is reported here, in Stratos's words and with a suggestion, not as Node's own message.
 */
import {parseArgs} from 'node:util';
import {StratosError} from '../errors/index.ts';
import {formatSuggestions, suggestClosest} from '../internal/edit-distance.ts';
import type {CommandSpec, ParsedCommand} from './commands/command.ts';
import {formatFlag, formatUsage} from './usage.ts';

/**
 * The positionals and option values of `args` for `spec`.
 *
 * @throws StratosError STRATOS_CLI_USAGE for an unknown option (with the closest known ones in
 *   `details.suggestions`), a missing or unexpected option value, an option given twice, too many arguments, or a
 *   target and `--name` that differ.
 */
export function parseCommand(spec: CommandSpec, args: string[]): ParsedCommand {
  const usage = formatUsage(spec);
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, option]) => [
      name,
      option.short === undefined ? {type: option.type} : {type: option.type, short: option.short},
    ]),
  );
  const parsed = parseArgs({
    args: withOptionalValues(spec, args),
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const option = spec.options[token.name];
    if (option === undefined) {
      const flags = [...Object.keys(spec.options).map((name) => `--${name}`), '--help'];
      const suggestions = suggestClosest(token.rawName, flags);
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `Unknown option '${token.rawName}' for 'stratos ${spec.name}'.${formatSuggestions(suggestions)} Usage: ${usage}`,
        {details: {option: token.rawName, suggestions, usage}},
      );
    }
    const flag = formatFlag(token.name, option);
    if (option.type === 'boolean' && token.value !== undefined) {
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `--${token.name} takes no value, but was given '${token.value}'; pass ${flag} alone. Usage: ${usage}`,
        {details: {option: token.rawName, usage}},
      );
    }
    if (option.type === 'string' && token.value === undefined && option.valueOptional !== true) {
      throw new StratosError('STRATOS_CLI_USAGE', `--${token.name} needs a value: ${flag}. Usage: ${usage}`, {
        details: {option: token.rawName, usage},
      });
    }
    // `--input --json` would take `--json` as the input: a forgotten value, most likely.
    if (
      option.type === 'string' &&
      !token.inlineValue &&
      token.value!.length > 1 &&
      token.value!.startsWith('-')
    ) {
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `--${token.name} needs a value, but '${token.value}' follows it. To pass a value that starts with '-', write --${token.name}=<value>. Usage: ${usage}`,
        {details: {option: token.rawName, usage}},
      );
    }
    // A value option given twice would silently keep the last one: say so instead.
    if (option.type === 'string' && seen.has(token.name)) {
      throw new StratosError(
        'STRATOS_CLI_USAGE',
        `--${token.name} was given more than once; pass it once. Usage: ${usage}`,
        {details: {option: token.rawName, usage}},
      );
    }
    seen.add(token.name);
  }
  if (parsed.positionals.length > spec.positionals.length) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `Too many arguments for 'stratos ${spec.name}': ${parsed.positionals.join(' ')}. Usage: ${usage}`,
      {details: {usage}},
    );
  }
  const target = parsed.positionals[0];
  const name = parsed.values.name;
  if (target !== undefined && typeof name === 'string' && name !== target) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `The target '${target}' and --name '${name}' differ; they mean the same thing, so pass one of them.`,
    );
  }
  return {positionals: parsed.positionals, values: parsed.values as ParsedCommand['values']};
}

/** `--queue` alone (last, or before another option) becomes `--queue=` for an option whose value is optional. */
function withOptionalValues(spec: CommandSpec, args: string[]): string[] {
  return args.map((arg, index) => {
    if (!arg.startsWith('--') || arg.includes('=')) return arg;
    const next = args[index + 1];
    return spec.options[arg.slice(2)]?.valueOptional === true && (next === undefined || next.startsWith('-'))
      ? `${arg}=`
      : arg;
  });
}
