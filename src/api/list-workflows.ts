import {type BuildFreshness, checkBuildFreshness} from '../builder/freshness-status.ts';
import type {Diagnostic} from '../errors/index.ts';
import {checkWorkflowConfiguration} from './check-configuration.ts';
import {discover, type HostOptions, resolveHost} from './host.ts';

export interface WorkflowSummary {
  name: string;
  shortDescription: string | undefined;
  version: string | undefined;
  directory: string;
  root: 'project' | 'user' | 'path';
  build: BuildFreshness;
  diagnostics: Diagnostic[];
}

export interface ListWorkflowsResult {
  workflows: WorkflowSummary[];
  problems: Diagnostic[];
  /** Where discovery looked, in search order: the project root, then the user root. */
  roots: {kind: 'project' | 'user'; directory: string}[];
}

/** The catalog: names, short descriptions and build freshness. Builds, installs and connects nothing. */
export async function listWorkflows(options: HostOptions = {}): Promise<ListWorkflowsResult> {
  const discovery = await discover(resolveHost(options));
  const workflows = await Promise.all(
    discovery.workflows.map(async (found) => {
      const handle = await checkWorkflowConfiguration(found);
      return {
        name: handle.name,
        shortDescription: handle.manifest?.shortDescription,
        version: handle.manifest?.version,
        directory: handle.directory,
        root: handle.root.kind,
        build: await checkBuildFreshness(handle),
        diagnostics: handle.diagnostics,
      };
    }),
  );
  return {
    workflows,
    problems: discovery.problems,
    roots: discovery.roots.map((root) => ({
      kind: root.kind as 'project' | 'user',
      directory: root.directory,
    })),
  };
}
