import {describeWorkflow} from '../../api/describe-workflow.ts';
import type {CommandHandler} from './command.ts';
import {requireTarget} from './require-target.ts';

export const describeCommand: CommandHandler = async (command, context) => {
  const target = requireTarget(command, 'describe');
  const description = await describeWorkflow(target, {
    cwd: context.cwd,
    env: context.env,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
  });
  const {warnings, ...data} = description;
  const human = [
    `${context.paint(data.name, 'bold')} ${data.version}`,
    data.shortDescription.trim(),
    '',
    data.longDescription.trimEnd(),
    '',
    context.paint('Input schema:', 'bold'),
    JSON.stringify(data.input, null, 2),
    '',
    context.paint('Output schema:', 'bold'),
    JSON.stringify(data.output, null, 2),
    '',
  ].join('\n');
  return {ok: true, message: `Described workflow '${data.name}'`, data, warnings, human};
};
