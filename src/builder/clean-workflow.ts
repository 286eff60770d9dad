/** Deletes what Stratos generated for a workflow; keeps authored files, dependencies and credentials. */
import {existsSync} from 'node:fs';
import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import type {WorkflowHandle} from '../discovery/index.ts';
import {resolveWorkflowPaths} from './workflow-paths.ts';

export interface CleanResult {
  name: string;
  removed: string[];
}

export async function cleanWorkflow(handle: WorkflowHandle): Promise<CleanResult> {
  const paths = resolveWorkflowPaths(handle);
  const owned = [paths.dist, paths.generated, join(paths.root, '.generated', `${handle.name}.ts`)];
  const removed: string[] = [];
  for (const path of owned) {
    if (!existsSync(path)) continue;
    await rm(path, {recursive: true, force: true});
    removed.push(path);
  }
  return {name: handle.name, removed};
}
