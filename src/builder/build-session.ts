/**
 * One build command's shared state: each workflow is built at most once (memoized by folder), children before
 * parents, and the chain of workflows being built is tracked so a dependency cycle is reported with its path.
 */
import {discoverRoot, type WorkflowHandle} from '../discovery/index.ts';
import type {BuildWorkflowOptions, WorkflowBuildResult} from './build-workflow.ts';

export type BuildOne = (
  handle: WorkflowHandle,
  options: BuildWorkflowOptions,
  session: BuildSession,
  chain: readonly string[],
) => Promise<WorkflowBuildResult>;

export class BuildSession {
  readonly options: BuildWorkflowOptions;
  #buildOne: BuildOne;
  #results = new Map<string, Promise<WorkflowBuildResult>>();
  #roots = new Map<string, Promise<WorkflowHandle[]>>();

  constructor(options: BuildWorkflowOptions, buildOne: BuildOne) {
    this.options = options;
    this.#buildOne = buildOne;
  }

  build(handle: WorkflowHandle, chain: readonly string[] = []): Promise<WorkflowBuildResult> {
    let result = this.#results.get(handle.directory);
    if (result === undefined) {
      result = this.#buildOne(handle, this.options, this, [...chain, handle.name]);
      this.#results.set(handle.directory, result);
    }
    return result;
  }

  /** The workflow named `name` in the same discovery root as `parent`, or undefined. */
  async findSibling(parent: WorkflowHandle, name: string): Promise<WorkflowHandle | undefined> {
    let handles = this.#roots.get(parent.root.directory);
    if (handles === undefined) {
      handles = discoverRoot(parent.root);
      this.#roots.set(parent.root.directory, handles);
    }
    return (await handles).find((h) => h.name === name);
  }
}
