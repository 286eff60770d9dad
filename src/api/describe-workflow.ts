import {prepareWorkflow} from '../builder/prepare-workflow.ts';
import type {Diagnostic} from '../errors/index.ts';
import {findWorkflow, type HostOptions, resolveHost} from './host.ts';
import {type ProgressOptions, progressOption, warningsOf} from './progress.ts';

export interface WorkflowSchemas {
  name: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

export interface WorkflowDescription extends WorkflowSchemas {
  shortDescription: string;
  longDescription: string;
  version: string;
  directory: string;
  warnings: Diagnostic[];
}

/**
 * The manual and schemas of one workflow; builds it first when its build is absent or stale. `signal` cancels
 * that build (MCP discovery included); the call then fails with the signal's reason.
 */
export async function describeWorkflow(
  target: string,
  options: HostOptions & ProgressOptions = {},
): Promise<WorkflowDescription> {
  const handle = await findWorkflow(resolveHost(options), target);
  const prepared = await prepareWorkflow(handle, progressOption(options)).catch((error: unknown) => {
    // A build cancelled by SIGINT fails with the cancellation itself, not the diagnostics it caused.
    throw options.signal?.aborted === true ? options.signal.reason : error;
  });
  const {manifest} = prepared;
  return {
    name: handle.name,
    shortDescription: manifest.shortDescription,
    longDescription: manifest.longDescription,
    version: manifest.version,
    directory: handle.directory,
    input: prepared.record.schemas.input,
    output: prepared.record.schemas.output,
    warnings: warningsOf(prepared.build.diagnostics),
  };
}

/** Only the input and output JSON Schemas of one workflow. */
export async function getWorkflowSchema(
  target: string,
  options: HostOptions & ProgressOptions = {},
): Promise<WorkflowSchemas & {warnings: Diagnostic[]}> {
  const {name, input, output, warnings} = await describeWorkflow(target, options);
  return {name, input, output, warnings};
}
