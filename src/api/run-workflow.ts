import {loadWorkflowDefinition, prepareWorkflow, resolveWorkflowPaths} from '../builder/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import {type InvocationResult, invokeWorkflow} from '../runtime/index.ts';
import {findWorkflow, type HostOptions, resolveHost} from './host.ts';
import {type ProgressOptions, progressOption, warningsOf} from './progress.ts';
import {startRunRetention} from './runs.ts';

export interface RunWorkflowOptions extends HostOptions, ProgressOptions {
  signal?: AbortSignal;
}

export type RunWorkflowResult = InvocationResult & {warnings: Diagnostic[]};

/**
 * Runs a workflow in the invocation directory: resolve, prepare (build when absent or stale), load, invoke.
 * Resolution and build failures throw; failures of the invocation itself are returned with `ok: false`.
 */
export async function runWorkflow(
  target: string,
  input: unknown,
  options: RunWorkflowOptions = {},
): Promise<RunWorkflowResult> {
  const host = resolveHost(options);
  const handle = await findWorkflow(host, target);
  const prepared = await prepareWorkflow(handle, progressOption(options)).catch((error: unknown) => {
    // A build cancelled by SIGINT fails with the cancellation itself, not the diagnostics it caused.
    throw options.signal?.aborted === true ? options.signal.reason : error;
  });
  const paths = resolveWorkflowPaths(handle);
  const definition = await loadWorkflowDefinition(
    prepared.record.compiledEntrypoint,
    handle.name,
    paths.entrypoint,
  );
  const result = await invokeWorkflow({
    workflow: {name: handle.name, directory: handle.directory, manifest: handle.manifest!},
    definition,
    input,
    invocationDirectory: host.cwd,
    stratosHome: host.home,
    ...(options.signal === undefined ? {} : {signal: options.signal}),
    ...(options.onNotice === undefined ? {} : {notify: options.onNotice}),
  });
  // Retention runs in a detached process after the run's artifacts are final; it never delays the result.
  const retention = await startRunRetention(options);
  const warnings = [...warningsOf(prepared.build.diagnostics), ...result.telemetryWarnings, ...retention];
  return {...result, warnings};
}
