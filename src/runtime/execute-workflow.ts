/**
 * The one path from a workflow reference to its result, shared by `stratos run` (api/run-workflow.ts) and child
 * invocation (child-workflow.ts): resolve the handle, prepare it (reuse or build, children first), load its module
 * under the build lock, invoke it. The invoked workflow always has its manifest: preparation fails otherwise.
 */

import type {BuildWorkflowOptions} from '../builder/build-workflow.ts';
import type {LoadedWorkflow} from '../builder/index.ts';
import type {ExecutionContext} from '../context/execution-context.ts';
import type {WorkflowDefinition} from '../contract/define-workflow.ts';
import type {WorkflowHandle} from '../discovery/index.ts';
import {type InvocationResult, invokeWorkflow} from './invoke-workflow.ts';
import type {ResumeSource} from './run-journal.ts';

export interface ExecuteWorkflowOptions {
  /** Finds the workflow (a CLI target, or a child by name in its parent's root); throws when there is none. */
  resolve: () => Promise<WorkflowHandle>;
  input: unknown;
  invocationDirectory: string;
  /** Progress and notices of the preparing build. */
  build?: BuildWorkflowOptions;
  parent?: ExecutionContext;
  overrides?: ExecutionContext['overrides'];
  signal?: AbortSignal;
  notify?: (message: string) => void;
  stratosHome?: string;
  /** `stratos test`: a scripted child keeps its loaded contract (input and output schemas) but not its run. */
  scriptedRun?: WorkflowDefinition['run'];
  /** A child's step seam (within the step that started it). */
  steps?: ExecutionContext['steps'];
  /** `stratos runs resume`: the interrupted run's journal and run folder name. */
  resume?: ResumeSource;
}

export interface ExecutedWorkflow {
  workflow: LoadedWorkflow;
  result: InvocationResult;
}

/**
 * Resolves, prepares, loads and invokes. Resolution and build failures throw (`BuildError` for a failed build);
 * failures of the invocation itself are returned in `result` with `ok: false`.
 */
export async function executeWorkflow(options: ExecuteWorkflowOptions): Promise<ExecutedWorkflow> {
  const handle = await options.resolve();
  // Preparation is timed here and recorded as the invocation's first span once its telemetry is open.
  const startedAt = new Date();
  // Loaded on first use: generated child wrappers import this module, and the build layer is not light.
  const {prepareAndLoadWorkflow} = await import('../builder/prepare-workflow.ts');
  const workflow = await prepareAndLoadWorkflow(handle, options.build);
  const preparation = {startedAt, endMs: Date.now(), status: workflow.build.status};
  const result = await invokeWorkflow({
    preparation,
    workflow: {
      name: workflow.name,
      directory: workflow.directory,
      manifest: workflow.manifest,
      children: workflow.record.inputs.children.map((child) => child.name),
    },
    definition:
      options.scriptedRun === undefined
        ? workflow.definition
        : {...workflow.definition, run: options.scriptedRun},
    input: options.input,
    invocationDirectory: options.invocationDirectory,
    ...(options.parent === undefined ? {} : {parent: options.parent}),
    ...(options.overrides === undefined ? {} : {overrides: options.overrides}),
    ...(options.signal === undefined ? {} : {signal: options.signal}),
    ...(options.notify === undefined ? {} : {notify: options.notify}),
    ...(options.stratosHome === undefined ? {} : {stratosHome: options.stratosHome}),
    ...(options.steps === undefined ? {} : {steps: options.steps}),
    ...(options.resume === undefined ? {} : {resume: options.resume}),
  });
  return {workflow, result};
}
