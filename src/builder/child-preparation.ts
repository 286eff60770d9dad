/**
 * Builds the children a workflow references before the workflow itself and writes their typed wrappers into
 * `<root>/.generated/`. An invalid child blocks its parent, even when the parent calls it conditionally; a cycle
 * is reported with its path. The wrapper's hash joins the parent's build key: a child's schema change rebuilds
 * the parent, a change of its run body alone does not.
 */
import {readFile} from 'node:fs/promises';
import type {WorkflowHandle} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {sha256Hex} from '../internal/hash.ts';
import type {BuildSession} from './build-session.ts';
import {childWrapperPath, findChildReferences} from './child-references.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

export interface ChildPreparation {
  diagnostics: Diagnostic[];
  keyInputs: Record<string, string>;
}

export async function prepareChildren(
  handle: WorkflowHandle,
  paths: WorkflowPaths,
  session: BuildSession,
  chain: readonly string[],
): Promise<ChildPreparation> {
  const diagnostics: Diagnostic[] = [];
  const keyInputs: Record<string, string> = {};
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
    await writeIfChanged(childWrapperPath(paths.root, child.name), source);
    keyInputs[`child:${child.name}`] = sha256Hex(source);
  }
  return {diagnostics, keyInputs};
}

/** The key inputs of the wrappers as they are on disk now, for a freshness check that builds nothing. */
export async function currentChildKeyInputs(paths: WorkflowPaths): Promise<Record<string, string>> {
  const keyInputs: Record<string, string> = {};
  for (const reference of await findChildReferences(paths)) {
    const text = await readFile(childWrapperPath(paths.root, reference.name), 'utf8').catch(() => '');
    keyInputs[`child:${reference.name}`] = sha256Hex(text);
  }
  return keyInputs;
}

async function writeIfChanged(file: string, content: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current !== content) await writeFileAtomic(file, content);
}
