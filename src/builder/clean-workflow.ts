/**
 * Deletes what Stratos generated for a workflow and nothing else: authored files, dependencies and credentials
 * stay, and so does any file someone put into `dist/` or `generated/` (owned-files.ts says what Stratos wrote).
 */
import {rmSync} from 'node:fs';
import type {WorkflowHandle} from '../discovery/index.ts';
import {withBuildLock} from './build-lock.ts';
import {childWrapperPath} from './child-references.ts';
import {clearDist, clearGenerated, hasGeneratedHeader} from './owned-files.ts';
import {assertOwnedFile, assertOwnedFolder} from './owned-output.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

export interface CleanResult {
  name: string;
  /** What was deleted: a folder that went as a whole, else each file. */
  removed: string[];
  /** Files left in `dist/`, `generated/` or `<root>/.generated/` because Stratos did not write them. */
  kept: string[];
}

/**
 * Removes what Stratos wrote in `dist/` and `generated/` (and the folders that leaves empty) and the workflow's
 * child wrapper in `<root>/.generated/`, under the build lock.
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
    const dist = clearDist(paths.dist);
    const generated = clearGenerated(paths.generated);
    const result: CleanResult = {
      name: handle.name,
      removed: [...dist.removed, ...generated.removed],
      kept: [...dist.kept, ...generated.kept],
    };
    if (hasGeneratedHeader(wrapper)) {
      rmSync(wrapper, {force: true});
      result.removed.push(wrapper);
    }
    return result;
  });
}
