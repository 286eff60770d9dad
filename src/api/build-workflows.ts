import {buildWorkflow, createBuildSession, type WorkflowBuildResult} from '../builder/build-workflow.ts';
import {checkWorkflowConfiguration} from './check-configuration.ts';
import {discover, findWorkflow, type HostOptions, resolveHost} from './host.ts';
import type {ProgressOptions} from './progress.ts';

export interface BuildWorkflowsOptions extends HostOptions, ProgressOptions {
  force?: boolean;
}

export interface BuildWorkflowsResult {
  results: WorkflowBuildResult[];
  ok: boolean;
}

/**
 * Builds one workflow (a target) or every discovered workflow. A project-wide build reports each failure and
 * continues with the rest.
 */
export async function buildWorkflows(
  target: string | undefined,
  options: BuildWorkflowsOptions = {},
): Promise<BuildWorkflowsResult> {
  const host = resolveHost(options);
  const buildOptions = {
    explicit: true,
    ...(options.force === undefined ? {} : {force: options.force}),
    ...(options.onProgress === undefined ? {} : {onProgress: options.onProgress}),
    ...(options.onNotice === undefined ? {} : {onNotice: options.onNotice}),
    ...(options.signal === undefined ? {} : {signal: options.signal}),
  };
  if (target !== undefined) {
    const handle = await checkWorkflowConfiguration(await findWorkflow(host, target));
    const result = await buildWorkflow(handle, buildOptions);
    throwIfCancelled(options.signal);
    return {results: [result], ok: result.status !== 'failed'};
  }
  const discovery = await discover(host);
  const results: WorkflowBuildResult[] = [];
  // One session: a child shared by several parents is built once. One at a time: builds of one root share its
  // node_modules links and .gitignore.
  const session = createBuildSession(buildOptions);
  for (const handle of discovery.workflows) {
    throwIfCancelled(options.signal);
    results.push(await buildWorkflow(await checkWorkflowConfiguration(handle), buildOptions, session));
  }
  throwIfCancelled(options.signal);
  for (const problem of discovery.problems) {
    const culprit = results.find((r) => problem.location?.file.startsWith(r.directory));
    culprit?.diagnostics.push(problem);
    if (culprit !== undefined) culprit.status = 'failed';
  }
  return {results, ok: results.every((r) => r.status !== 'failed')};
}

/** A cancelled build (SIGINT) ends with the cancellation, not with the diagnostics the cancellation caused. */
function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason;
}
