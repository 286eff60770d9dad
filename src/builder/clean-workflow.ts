/** Deletes what Stratos generated for a workflow; keeps authored files, dependencies and credentials. */
import {existsSync} from 'node:fs';
import {rm} from 'node:fs/promises';
import type {WorkflowHandle} from '../discovery/index.ts';
import {withBuildLock} from './build-lock.ts';
import {childWrapperPath} from './child-references.ts';
import {assertOwnedFile, assertOwnedFolder} from './owned-output.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

export interface CleanResult {
  name: string;
  removed: string[];
}

/**
 * Removes `dist/`, `generated/` and the workflow's child wrapper in `<root>/.generated/`, under the build lock.
 * @throws StratosError STRATOS_BUILD_OUTPUT_UNSAFE before anything is deleted when one of them (or an entry in
 *   them) is a symbolic link or not what Stratos writes.
 */
export async function cleanWorkflow(handle: WorkflowHandle): Promise<CleanResult> {
  const paths = resolveWorkflowPaths(handle);
  const wrapper = childWrapperPath(paths.root, handle.name);
  await assertOwnedFolder(paths.directory, paths.dist);
  await assertOwnedFolder(paths.directory, paths.generated);
  await assertOwnedFile(paths.root, wrapper);
  return withBuildLock(paths, async () => {
    const removed: string[] = [];
    for (const path of [paths.dist, paths.generated, wrapper]) {
      if (!existsSync(path)) continue;
      await rm(path, {recursive: true, force: true});
      removed.push(path);
    }
    return {name: handle.name, removed};
  });
}
