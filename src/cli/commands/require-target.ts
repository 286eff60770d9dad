import {StratosError} from '../../errors/index.ts';
import {type ParsedCommand, workflowTarget} from './command.ts';

export function requireTarget(command: ParsedCommand, name: string): string {
  const target = workflowTarget(command);
  if (target === undefined) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `'stratos ${name}' needs a workflow name or folder path, for example 'stratos ${name} pr-review'. Run 'stratos list' to see the workflows.`,
    );
  }
  return target;
}
