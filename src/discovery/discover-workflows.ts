/** Finds workflow folders in the discovery roots. Reads manifests only: never builds, installs or connects. */
import {readdir, stat} from 'node:fs/promises';
import {basename, join, resolve} from 'node:path';
import type {Diagnostic} from '../errors/index.ts';
import {readManifest} from '../manifest/index.ts';
import type {DiscoveryOptions, DiscoveryResult, DiscoveryRoot, WorkflowHandle} from './types.ts';

export function discoveryRoots(options: DiscoveryOptions): DiscoveryRoot[] {
  const project = resolve(options.cwd, '.stratos', 'workflows');
  const user = resolve(options.home, 'workflows');
  // Invoked from the folder that holds ~/.stratos itself: one root, not the same root twice.
  return project === user
    ? [{kind: 'user', directory: user}]
    : [
        {kind: 'project', directory: project},
        {kind: 'user', directory: user},
      ];
}

export async function discoverWorkflows(options: DiscoveryOptions): Promise<DiscoveryResult> {
  const roots = discoveryRoots(options);
  const perRoot = await Promise.all(roots.map((root) => discoverRoot(root)));
  const workflows = perRoot.flat();
  return {roots, workflows, problems: findDuplicateNames(workflows)};
}

export async function discoverRoot(root: DiscoveryRoot): Promise<WorkflowHandle[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(root.directory, {withFileTypes: true});
  } catch {
    return [];
  }
  const folders = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
    .map((entry) => join(root.directory, entry.name))
    .sort();
  const handles = await Promise.all(folders.map((folder) => readWorkflowFolder(folder, root)));
  return handles.filter((handle) => handle !== undefined);
}

/** The handle of one folder, or undefined when it holds no workflow.yaml. */
export async function readWorkflowFolder(
  directory: string,
  root: DiscoveryRoot,
): Promise<WorkflowHandle | undefined> {
  if (!(await isFile(join(directory, 'workflow.yaml')))) return undefined;
  const result = await readManifest(directory);
  return {
    name: result.manifest?.name ?? basename(directory),
    directory,
    root,
    manifest: result.manifest,
    diagnostics: result.diagnostics,
    locate: result.locate,
  };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function findDuplicateNames(workflows: readonly WorkflowHandle[]): Diagnostic[] {
  const seen = new Map<string, WorkflowHandle>();
  const problems: Diagnostic[] = [];
  for (const handle of workflows) {
    if (handle.manifest === undefined) continue;
    const key = `${handle.root.directory}\0${handle.name}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, handle);
      continue;
    }
    problems.push({
      code: 'STRATOS_WORKFLOW_DUPLICATE_NAME',
      severity: 'error',
      message: `Workflow name '${handle.name}' is used by two folders in ${handle.root.directory}: ${first.directory} and ${handle.directory}. Names must be unique within a discovery root; rename one of them.`,
      location: {file: join(handle.directory, 'workflow.yaml'), line: 1, column: 1},
    });
  }
  return problems;
}
