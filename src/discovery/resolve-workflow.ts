/** Turns a CLI target (a workflow name or a workflow folder path) into exactly one workflow handle. */
import {existsSync, lstatSync, realpathSync} from 'node:fs';
import {basename, dirname} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {resolveConfiguredPath} from '../internal/configured-path.ts';
import {formatSuggestions, suggestClosest} from '../internal/edit-distance.ts';
import {readWorkflowFolder} from './discover-workflows.ts';
import type {DiscoveryResult, WorkflowHandle} from './types.ts';

/** A target names a folder when it looks like a path; otherwise it is a workflow name. */
export function isPathTarget(target: string): boolean {
  return target.includes('/') || target.includes('\\') || target.startsWith('.') || target.startsWith('~');
}

export async function resolveWorkflow(
  target: string,
  discovery: DiscoveryResult,
  cwd: string,
): Promise<WorkflowHandle> {
  if (isPathTarget(target)) return resolvePathTarget(target, discovery, cwd);
  const matches = discovery.workflows.filter((w) => w.name === target);
  if (matches.length === 0) {
    const where = discovery.roots.map((r) => r.directory).join(' or ');
    const suggestions = suggestClosest(
      target,
      discovery.workflows.map((w) => w.name),
    );
    // A folder of that name that discovery skipped as a symbolic link: say so instead of only "not found".
    const linked = discovery.problems.find(
      (p) =>
        p.code === 'STRATOS_WORKFLOW_LINK_SKIPPED' &&
        p.location !== undefined &&
        basename(dirname(p.location.file)) === target,
    );
    throw new StratosError(
      'STRATOS_WORKFLOW_NOT_FOUND',
      `Workflow '${target}' was not found in ${where}.${formatSuggestions(suggestions)} ${linked === undefined ? "Run 'stratos list' to see the discovered workflows." : linked.message}`,
      {details: {target, roots: discovery.roots.map((r) => r.directory), suggestions}},
    );
  }
  const roots = new Set(matches.map((m) => m.root.directory));
  if (roots.size < matches.length) {
    throw new StratosError(
      'STRATOS_WORKFLOW_DUPLICATE_NAME',
      `Workflow name '${target}' is used by ${matches.length} folders in one discovery root: ${matches.map((m) => m.directory).join(', ')}. Rename one, or pass the folder path as the target.`,
      {details: {target, paths: matches.map((m) => m.directory)}},
    );
  }
  if (matches.length > 1) {
    throw new StratosError(
      'STRATOS_WORKFLOW_AMBIGUOUS',
      `Workflow '${target}' exists in more than one discovery root: ${matches.map((m) => m.directory).join(' and ')}. Pass the folder path of the one you mean as the target, for example 'stratos run ${matches[0]!.directory}'.`,
      {details: {target, paths: matches.map((m) => m.directory)}},
    );
  }
  return matches[0]!;
}

/**
 * A folder reached through a symbolic link is used at its real path, so its root is its real parent and every build
 * write lands in the folder itself, never through the link.
 */
function realFolder(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

async function resolvePathTarget(
  target: string,
  discovery: DiscoveryResult,
  cwd: string,
): Promise<WorkflowHandle> {
  const directory = realFolder(resolveConfiguredPath(target, cwd));
  const known = discovery.workflows.find((w) => w.directory === directory);
  if (known !== undefined) return known;
  const root = discovery.roots.find((r) => r.directory === dirname(directory)) ?? {
    kind: 'path' as const,
    directory: dirname(directory),
  };
  const handle = existsSync(directory) ? await readWorkflowFolder(directory, root) : undefined;
  if (handle === undefined) {
    throw new StratosError(
      'STRATOS_WORKFLOW_NOT_FOUND',
      `No workflow folder at ${directory}: it needs a workflow.yaml. Run 'stratos list' to see the discovered workflows.`,
      {details: {target, path: directory}},
    );
  }
  return handle;
}
