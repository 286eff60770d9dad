/** The shape every CLI command shares: options declared once as data drive parsing and help. */
import type {BuildProgress} from '../../builder/index.ts';
import type {Diagnostic, StratosError} from '../../errors/index.ts';
import type {Style} from '../output/style.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  description: string;
  /** Shown in help as `--name <value>`. */
  value?: string;
  /** The command cannot run without it: shown in the usage without brackets. */
  required?: boolean;
  /** The values it accepts, offered by shell completion (`--template basic|mcp|...`). */
  choices?: readonly string[];
  /**
   * A string option whose value may be left out (`--queue` or `--queue nightly`): alone, or followed by another
   * option, it parses as `''`.
   */
  valueOptional?: true;
  /** Another way to pass the positional target (`--name`): left out of the usage line, kept in the options. */
  aliasOfTarget?: boolean;
}

export interface CommandSpec {
  /** `run`, or `mcp list` for a resource/action command. */
  name: string;
  summary: string;
  /** One typical invocation, shown by help (`stratos run greet --input '{"name":"Ada"}'`). */
  example: string;
  /** Names of the positional arguments, in order; a trailing `?` marks an optional one. */
  positionals: string[];
  /** Values a positional accepts (`completion`'s shell), offered by shell completion; keyed by its name. */
  positionalChoices?: Record<string, readonly string[]>;
  options: Record<string, OptionSpec>;
  /** Options that exclude each other, shown in the usage as `(--a <x> | --b)`, or `[...]` when none is needed. */
  oneOf?: {options: string[]; required: boolean};
  /**
   * Left out of the root help's one-screen summary (24 lines), still in its command list, completion and its own
   * help: a command another one's help points to (`worker`, from `run --queue`).
   */
  summaryOmitted?: true;
  /** Left out of help and completion: the shell completion's callback (`__complete`). */
  hidden?: boolean;
  /** Receives every argument after its name as a positional, unparsed (the words being completed). */
  passThrough?: boolean;
  /**
   * True when the handler passes `context.signal` to its api call, which stops the work it owns (builds, MCP
   * connections, runs, servers) and then settles. Every other command is answered by `main` itself at the first
   * SIGINT or SIGTERM (STRATOS_RUN_CANCELLED) without waiting for it: no command ignores the first signal.
   */
  handlesSignal?: true;
  /** Loaded only when the command runs, so help and other commands do not pay for it. */
  load(): Promise<CommandHandler>;
}

export interface CommandContext {
  json: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  paint: (text: string, style: Style) => string;
  /** Progress of long steps; shown on a terminal only, never in --json mode or CI. */
  progress: (progress: BuildProgress) => void;
  /** A notice the person must act on (a sign-in URL): always shown on stderr, also in --json mode. */
  notice: (message: string) => void;
  signal: AbortSignal;
}

export interface ParsedCommand {
  positionals: (string | undefined)[];
  values: Record<string, string | boolean | undefined>;
}

export type CommandOutput =
  | {ok: true; message: string; data: unknown; warnings: Diagnostic[]; human: string}
  | {ok: false; error: StratosError; warnings: Diagnostic[]; human?: string};

export type CommandHandler = (command: ParsedCommand, context: CommandContext) => Promise<CommandOutput>;

/** The workflow target of a command: the positional argument or `--name` (they mean the same). */
export function workflowTarget(command: ParsedCommand): string | undefined {
  const name = command.values.name;
  return command.positionals[0] ?? (typeof name === 'string' ? name : undefined);
}

export const jsonOption: OptionSpec = {type: 'boolean', description: 'Print one JSON envelope on stdout.'};
export const nameOption: OptionSpec = {
  type: 'string',
  value: 'workflow',
  aliasOfTarget: true,
  description: 'The workflow name or folder path (same as the positional target).',
};
