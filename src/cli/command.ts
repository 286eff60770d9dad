/** The shape every CLI command shares: options declared once as data drive parsing and help. */
import type {BuildProgress} from '../builder/index.ts';
import type {Diagnostic, StratosError} from '../errors/index.ts';
import type {Style} from './output/style.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  description: string;
  /** Shown in help as `--name <value>`. */
  value?: string;
}

export interface CommandSpec {
  /** `run`, or `mcp list` for a resource/action command. */
  name: string;
  summary: string;
  usage: string;
  /** Names of the positional arguments, in order; a trailing `?` marks an optional one. */
  positionals: string[];
  options: Record<string, OptionSpec>;
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
  description: 'The workflow name or folder path (same as the positional target).',
};
