import {relative, sep} from 'node:path';
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
  // The catalog is read by agents: each directory as the shortest path that still works as a target.
  const catalog = workflows.map((w) => ({
    ...w,
    directory: displayPath(w.directory, context.cwd, context.env.HOME),
  }));
  return {ok: true, message: count, data: {workflows: catalog, problems}, warnings, human};
};

/** Relative to the invocation directory inside it, `~/...` under the home directory, else absolute. */
function displayPath(directory: string, cwd: string, home: string | undefined): string {
  const inside = (base: string) => directory.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);
  if (inside(cwd)) return relative(cwd, directory);
  if (home !== undefined && home !== '' && inside(home)) return `~/${relative(home, directory)}`;
  return directory;
}
