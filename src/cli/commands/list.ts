import {listWorkflows} from '../../api/list-workflows.ts';
import type {CommandHandler} from '../command.ts';

// Findings (invalid manifests, duplicate names) go with the warnings, which the CLI prints on stderr.
export const listCommand: CommandHandler = async (_command, context) => {
  const {workflows, problems} = await listWorkflows({cwd: context.cwd, env: context.env});
  const warnings = [...problems, ...workflows.flatMap((w) => w.diagnostics)];
  const count = `${workflows.length} ${workflows.length === 1 ? 'workflow' : 'workflows'}`;
  const width = Math.max(0, ...workflows.map((w) => w.name.length));
  const lines = workflows.map((w) => {
    const description = w.shortDescription?.trim() ?? context.paint('(invalid workflow.yaml)', 'red');
    return `${w.name.padEnd(width)}  ${description}  ${context.paint(`[${w.build}]`, 'dim')}`;
  });
  const human =
    workflows.length === 0
      ? "No workflows found in .stratos/workflows/ or ~/.stratos/workflows/. Create <name>/workflow.yaml and workflow.ts in one of them (see 'stratos --help').\n"
      : `${lines.join('\n')}\n`;
  return {ok: true, message: count, data: {workflows, problems}, warnings, human};
};
