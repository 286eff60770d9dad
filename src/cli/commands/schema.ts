import {getWorkflowSchema} from '../../api/describe-workflow.ts';
import type {CommandHandler} from './command.ts';
import {requireTarget} from './require-target.ts';

export const schemaCommand: CommandHandler = async (command, context) => {
  const target = requireTarget(command, 'schema');
  const {warnings, ...data} = await getWorkflowSchema(target, {
    cwd: context.cwd,
    env: context.env,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
  });
  const human = `${JSON.stringify({input: data.input, output: data.output}, null, 2)}\n`;
  return {ok: true, message: `Schemas of workflow '${data.name}'`, data, warnings, human};
};
