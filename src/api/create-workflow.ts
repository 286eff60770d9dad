/**
 * `stratos new` as a function: a workflow folder from one of the templates shipped in the package
 * (`templates/<template>/`), ready for `stratos build` and with a saved case that `stratos test` passes.
 */
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {packageDirectory} from '../internal/package-info.ts';
import {nameProblem} from '../manifest/index.ts';
import {type HostOptions, resolveHost} from './host.ts';

export const templatesDirectory = join(packageDirectory, 'templates');

export interface CreateWorkflowOptions extends HostOptions {
  name: string;
  /** A folder of `templates/`; default `basic`. */
  template?: string;
}

export interface CreateWorkflowResult {
  name: string;
  template: string;
  directory: string;
  /** The files written, relative to `directory`, sorted. */
  files: string[];
  /** The commands to run next, in order. */
  next: string[];
}

/** The templates shipped with this copy of Stratos, sorted. */
export function listWorkflowTemplates(): string[] {
  return readdirSync(templatesDirectory, {withFileTypes: true})
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * Writes `<cwd>/.stratos/workflows/<name>/` from a template: every file of the template, with `__name__` replaced by
 * the workflow name. The folder must not exist yet; nothing is overwritten.
 *
 * @throws StratosError STRATOS_MANIFEST_NAME_INVALID (the name breaks the manifest's name rule),
 *   STRATOS_NEW_TEMPLATE_UNKNOWN, STRATOS_NEW_FOLDER_EXISTS
 * @example await createWorkflow({name: 'greet', template: 'basic'})
 */
export async function createWorkflow(options: CreateWorkflowOptions): Promise<CreateWorkflowResult> {
  const host = resolveHost(options);
  const {name} = options;
  const template = options.template ?? 'basic';
  const problem = nameProblem(name);
  if (problem !== undefined) {
    throw new StratosError(
      'STRATOS_MANIFEST_NAME_INVALID',
      `The workflow name '${name}' is invalid: ${problem}`,
      {
        details: {name},
      },
    );
  }
  const templates = listWorkflowTemplates();
  if (!templates.includes(template)) {
    throw new StratosError(
      'STRATOS_NEW_TEMPLATE_UNKNOWN',
      `There is no template '${template}'. Pass --template with one of: ${templates.join(', ')}.`,
      {details: {template, templates}},
    );
  }
  const root = join(host.cwd, '.stratos', 'workflows');
  const directory = join(root, name);
  mkdirSync(root, {recursive: true});
  try {
    // Not recursive: creating the folder is the check that it did not exist, with no window between the two.
    mkdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new StratosError(
      'STRATOS_NEW_FOLDER_EXISTS',
      `${directory} already exists, and stratos new never overwrites. Choose another name, or remove the folder first.`,
      {details: {name, directory}},
    );
  }
  const source = join(templatesDirectory, template);
  const files = readdirSync(source, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => relative(source, join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) {
    const text = readFileSync(join(source, file), 'utf8').replaceAll('__name__', name);
    mkdirSync(join(directory, file, '..'), {recursive: true});
    writeFileSync(join(directory, file), text, {flag: 'wx'});
  }
  return {
    name,
    template,
    directory,
    files,
    next: [`stratos build ${name}`, `stratos test ${name}`],
  };
}
