import {join, relative, sep} from 'node:path';
import {listWorkflows} from '../../api/list-workflows.ts';
import {packageDirectory} from '../../internal/package-info.ts';
import type {CommandHandler} from './command.ts';

// Findings (invalid manifests, duplicate names) go with the warnings, which the CLI prints on stderr.
export const listCommand: CommandHandler = async (_command, context) => {
  const {workflows, problems, roots} = await listWorkflows({cwd: context.cwd, env: context.env});
  const warnings = [...problems, ...workflows.flatMap((w) => w.diagnostics)];
  const count = `${workflows.length} ${workflows.length === 1 ? 'workflow' : 'workflows'}`;
  const width = Math.max(0, ...workflows.map((w) => w.name.length));
  const lines = workflows.map((w) => {
    const description = w.shortDescription?.trim() ?? context.paint('(invalid workflow.yaml)', 'red');
    return `${w.name.padEnd(width)}  ${description}  ${context.paint(`[${w.build}]`, 'dim')}`;
  });
  const human = workflows.length === 0 ? describeEmptyCatalog(roots) : `${lines.join('\n')}\n`;
  // The catalog is read by agents: each directory as the shortest path that still works as a target.
  const catalog = workflows.map((w) => ({
    ...w,
    directory: displayPath(w.directory, context.cwd, context.env.HOME),
  }));
  return {ok: true, message: count, data: {workflows: catalog, problems, roots}, warnings, human};
};

/**
 * Where discovery looked, and the two ways to a first workflow: a template, or a copy of a bundled example. A copy,
 * because a build writes beside the workflow, and the examples of an installed package belong to the package.
 */
function describeEmptyCatalog(roots: {kind: string; directory: string}[]): string {
  const example = join(packageDirectory, 'examples', 'pr-review');
  return [
    'No workflows found. Stratos looked in:',
    ...roots.map((root) => `  ${root.directory} (${root.kind})`),
    '',
    "Create one here with 'stratos new <name>' (then 'stratos build <name>' and 'stratos test <name>'),",
    'or copy a bundled example into this project and run it:',
    `  mkdir -p .stratos/workflows && cp -R ${example} .stratos/workflows/`,
    `  stratos run pr-review --input '{"repo":"org/repo","pr_number":42}'`,
    '',
  ].join('\n');
}

/** Relative to the invocation directory inside it, `~/...` under the home directory, else absolute. */
function displayPath(directory: string, cwd: string, home: string | undefined): string {
  const inside = (base: string) => directory.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);
  if (inside(cwd)) return relative(cwd, directory);
  if (home !== undefined && home !== '' && inside(home)) return `~/${relative(home, directory)}`;
  return directory;
}
