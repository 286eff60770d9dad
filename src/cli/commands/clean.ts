import {cleanWorkflows} from '../../api/clean-workflows.ts';
import type {Diagnostic} from '../../errors/index.ts';
import {type CommandHandler, workflowTarget} from './command.ts';

export const cleanCommand: CommandHandler = async (command, context) => {
  const results = await cleanWorkflows(workflowTarget(command), {cwd: context.cwd, env: context.env});
  const removed = results.reduce((sum, r) => sum + r.removed.length, 0);
  const human = results
    .map(
      (r) =>
        `${r.name}: ${r.removed.length === 0 ? 'nothing to remove' : `removed ${r.removed.join(', ')}`}\n`,
    )
    .join('');
  const warnings: Diagnostic[] = results.flatMap((r) =>
    r.kept.map((file) => ({
      code: 'STRATOS_BUILD_OWNED_FILE_KEPT' as const,
      severity: 'warning' as const,
      message: `Kept ${file}: Stratos did not write it, so clean leaves it. Move it out of the folder Stratos owns.`,
      location: {file},
    })),
  );
  return {
    ok: true,
    message: `Removed ${removed} generated ${removed === 1 ? 'path' : 'paths'}`,
    data: {workflows: results},
    warnings,
    human: human || 'No workflows found.\n',
  };
};
