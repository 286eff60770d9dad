/**
 * Builds the children a workflow references before the workflow itself and writes their typed wrappers into
 * `<root>/.generated/`. An invalid child blocks its parent, even when the parent calls it conditionally; a cycle
 * is reported with its path. The wrapper is a compiler input of the parent, so it joins the parent's build key: a
 * child's schema change rebuilds the parent, a change of its run body alone does not.
 */
import {readFile} from 'node:fs/promises';
import type {WorkflowHandle} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import type {BuildSession} from './build-session.ts';
import {childWrapperPath, findChildReferences} from './child-references.ts';
import {assertOwnedFile} from './owned-output.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

export interface ChildPreparation {
  diagnostics: Diagnostic[];
  /** The children the workflow references, built: they must stay fresh for the parent's build to be reused. */
  children: {name: string; directory: string}[];
}

export async function prepareChildren(
  handle: WorkflowHandle,
  paths: WorkflowPaths,
  session: BuildSession,
  chain: readonly string[],
): Promise<ChildPreparation> {
  const diagnostics: Diagnostic[] = [];
  const children: ChildPreparation['children'] = [];
  for (const reference of await findChildReferences(paths)) {
    const at = {location: reference.location};
    if (chain.includes(reference.name)) {
      const cycle = [...chain.slice(chain.indexOf(reference.name)), reference.name].join(' → ');
      diagnostics.push({
        code: 'STRATOS_WORKFLOW_CYCLE',
        severity: 'error',
        message: `Workflow '${handle.name}' calls '${reference.name}', which completes a call cycle: ${cycle}. Workflows may not call an active ancestor; break the cycle.`,
        ...at,
      });
      continue;
    }
    const child = await session.findSibling(handle, reference.name);
    if (child === undefined) {
      diagnostics.push({
        code: 'STRATOS_WORKFLOW_NOT_FOUND',
        severity: 'error',
        message: `Workflow '${handle.name}' imports child workflow '${reference.name}', which is not in ${handle.root.directory}. Children must live in the same discovery root.`,
        ...at,
      });
      continue;
    }
    const result = await session.build(child, chain);
    if (result.status === 'failed' || result.record === undefined) {
      const cause = result.diagnostics.find((d) => d.severity === 'error');
      diagnostics.push({
        // A cycle through this parent is the parent's problem too: keep its code.
        code:
          cause?.code === 'STRATOS_WORKFLOW_CYCLE' ? 'STRATOS_WORKFLOW_CYCLE' : 'STRATOS_BUILD_CHILD_FAILED',
        severity: 'error',
        message: `Workflow '${handle.name}' needs child workflow '${reference.name}', which failed to build${cause === undefined ? '' : `: ${cause.message}`}`,
        ...at,
      });
      continue;
    }
    // The generator (and the schema converter behind it) loads only for workflows that have children.
    const {generateChildWrapperSource} = await import('./child-wrapper.ts');
    const source = generateChildWrapperSource({
      name: child.name,
      shortDescription: child.manifest!.shortDescription,
      input: result.record.schemas.input,
      output: result.record.schemas.output,
    });
    const file = childWrapperPath(paths.root, child.name);
    await assertOwnedFile(paths.root, file);
    await writeIfChanged(file, source);
    children.push({name: child.name, directory: child.directory});
  }
  return {diagnostics, children};
}

async function writeIfChanged(file: string, content: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current !== content) await writeFileAtomic(file, content);
}
