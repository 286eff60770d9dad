/** Where a workflow's owned build products live. Compilation uses the discovery root as its root directory so that
 * imports of `<root>/.generated/` child wrappers keep their relative meaning inside `dist/`. */
import {join, relative} from 'node:path';
import type {WorkflowHandle} from '../discovery/index.ts';

export interface WorkflowPaths {
  directory: string;
  root: string;
  entrypoint: string;
  dist: string;
  compiledEntrypoint: string;
  buildRecord: string;
  generated: string;
  packageJson: string;
  nodeModules: string;
}

export function resolveWorkflowPaths(handle: WorkflowHandle): WorkflowPaths {
  const directory = handle.directory;
  const root = handle.root.directory;
  // Both separators count, as the manifest validator judges them: `src\main.ts` is src/main.ts on every system.
  const entry = (handle.manifest?.entrypoint ?? 'workflow.ts').replaceAll('\\', '/');
  const dist = join(directory, 'dist');
  const fromRoot = relative(root, join(directory, entry)).replace(/\.ts$/, '.js');
  return {
    directory,
    root,
    entrypoint: join(directory, entry),
    dist,
    compiledEntrypoint: join(dist, fromRoot),
    buildRecord: join(dist, '.stratos-build.json'),
    generated: join(directory, 'generated'),
    packageJson: join(directory, 'package.json'),
    nodeModules: join(directory, 'node_modules'),
  };
}
