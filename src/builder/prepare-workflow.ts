/**
 * What `run`, `describe`, `schema` and child invocations call: reuse a fresh build, build an absent or stale one
 * (children first), stop on failure. An old artifact never stands in for a failed build.
 */
import type {WorkflowDefinition} from '../contract/index.ts';
import type {WorkflowHandle} from '../discovery/index.ts';
import {BuildError} from '../errors/index.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import type {BuildRecord} from './build-record.ts';
import {
  type BuildWorkflowOptions,
  buildAndLoad,
  buildWorkflow,
  type WorkflowBuildResult,
} from './build-workflow.ts';

export interface PreparedWorkflow {
  name: string;
  directory: string;
  /** The manifest the build used: always there for a prepared workflow. */
  manifest: WorkflowManifest;
  record: BuildRecord;
  /** The build that prepared it (status `reused` when nothing changed); its warnings belong in the output. */
  build: WorkflowBuildResult;
}

/** A prepared workflow with its module loaded, ready to invoke. */
export interface LoadedWorkflow extends PreparedWorkflow {
  definition: WorkflowDefinition;
}

/** @throws BuildError when the build failed. */
export async function prepareWorkflow(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions = {},
): Promise<PreparedWorkflow> {
  const build = await buildWorkflow(handle, {...options, explicit: false});
  return prepared(handle, build);
}

/** Prepares and loads the module under the build lock, so a concurrent build never swaps it mid-load. */
export async function prepareAndLoadWorkflow(
  handle: WorkflowHandle,
  options: BuildWorkflowOptions = {},
): Promise<LoadedWorkflow> {
  const {build, definition} = await buildAndLoad(handle, {...options, explicit: false});
  const ready = prepared(handle, build);
  if (definition === undefined) throw new BuildError(handle.name, build.diagnostics);
  return {...ready, definition};
}

function prepared(handle: WorkflowHandle, build: WorkflowBuildResult): PreparedWorkflow {
  if (build.status === 'failed' || build.record === undefined || handle.manifest === undefined)
    throw new BuildError(handle.name, build.diagnostics);
  return {
    name: handle.name,
    directory: handle.directory,
    manifest: handle.manifest,
    record: build.record,
    build,
  };
}
