/**
 * `stratos __complete [--] <word>...`: the callback of the completion scripts. Given the words after the program
 * name (the last one is being typed, maybe empty), prints the candidates that start with it, one a line: commands,
 * group actions, options and their declared choices from the command table; workflow names from discovery and run
 * ids from the recorded runs. Never fails: a completion has nothing to say rather than an error.
 */
import {discover, resolveHost} from '../../api/host.ts';
import {listRuns} from '../../api/runs.ts';
import type {CommandContext, CommandHandler, CommandSpec} from './command.ts';
import {commandGroups, findCommand, listFirstWords, listGroupCommands} from './table.ts';

export const completeCommand: CommandHandler = async (command, context) => {
  const words = command.positionals.filter((word) => word !== undefined);
  const current = words.at(-1) ?? '';
  let candidates: string[];
  try {
    candidates = await listCandidates(words.slice(0, -1), current, context);
  } catch {
    candidates = [];
  }
  const matching = [...new Set(candidates)].filter((candidate) => candidate.startsWith(current));
  return {
    ok: true,
    message: `${matching.length} candidates`,
    data: {candidates: matching},
    warnings: [],
    human: matching.length === 0 ? '' : `${matching.join('\n')}\n`,
  };
};

const rootOptions = ['--help', '--version', '--json'];

async function listCandidates(before: string[], current: string, context: CommandContext): Promise<string[]> {
  const words = before[0] === 'help' ? before.slice(1) : before;
  if (words.length === 0) {
    if (current.startsWith('-')) return rootOptions;
    return before[0] === 'help' ? listFirstWords() : [...listFirstWords(), 'help'];
  }
  if (commandGroups[words[0]!] !== undefined && words.length === 1) {
    return listGroupCommands(words[0]!).map((spec) => spec.name.slice(words[0]!.length + 1));
  }
  const found = findCommand(words);
  if (found === undefined || before[0] === 'help') return [];
  const spec = found.spec;
  const args = words.slice(found.consumed);
  const previous = args.at(-1);
  const pendingOption = previous?.startsWith('--') ? spec.options[previous.slice(2)] : undefined;
  if (pendingOption?.type === 'string') {
    if (pendingOption.choices !== undefined) return [...pendingOption.choices];
    return pendingOption.value === 'workflow' ? listWorkflowNames(context) : [];
  }
  if (current.startsWith('-')) return [...Object.keys(spec.options).map((name) => `--${name}`), '--help'];
  const positional = spec.positionals[countPositionals(spec, args)]?.replace(/\?$/, '');
  if (positional === undefined) return [];
  const choices = spec.positionalChoices?.[positional];
  if (choices !== undefined) return [...choices];
  if (positional === 'workflow') return listWorkflowNames(context);
  if (positional === 'run') return listRunIds(context);
  return [];
}

/** The positionals among `args`: words that are neither options nor the value of a value option. */
function countPositionals(spec: CommandSpec, args: string[]): number {
  let count = 0;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && spec.options[arg.slice(2)]?.type === 'string') index++;
      continue;
    }
    count++;
  }
  return count;
}

async function listWorkflowNames(context: CommandContext): Promise<string[]> {
  const discovery = await discover(resolveHost({cwd: context.cwd, env: context.env}));
  return discovery.workflows.map((workflow) => workflow.name).sort();
}

async function listRunIds(context: CommandContext): Promise<string[]> {
  const {runs} = await listRuns({cwd: context.cwd, env: context.env, all: true, limit: 50});
  return runs.map((run) => run.runId);
}
