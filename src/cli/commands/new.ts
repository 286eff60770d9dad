/** `stratos new <name> [--template <template>]`: a workflow folder from a bundled template. */
import {relative} from 'node:path';
import {createWorkflow} from '../../api/create-workflow.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from './command.ts';

export const newCommand: CommandHandler = async (command, context) => {
  const name = command.positionals[0];
  if (name === undefined) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      "'stratos new' needs the new workflow's name, for example 'stratos new greet' or 'stratos new triage --template decision'.",
    );
  }
  const template = command.values.template;
  const result = await createWorkflow({
    name,
    ...(typeof template === 'string' ? {template} : {}),
    cwd: context.cwd,
    env: context.env,
  });
  const shown = relative(context.cwd, result.directory);
  const human = [
    `Created ${shown}/ from the ${result.template} template:`,
    ...result.files.map((file) => `  ${file}`),
    '',
    'Next:',
    ...result.next.map((next) => `  ${next}`),
    '',
  ].join('\n');
  return {
    ok: true,
    message: `Created workflow '${result.name}' from the ${result.template} template`,
    data: result,
    warnings: [],
    human,
  };
};
