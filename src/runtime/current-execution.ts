import {type InvocationOverrides, requireExecutionContext} from '../context/execution-context.ts';

/** Read-only facts about the running workflow invocation. */
export interface ExecutionInfo {
  executionId: string;
  /** The execution id of the top-level run (equal to executionId for a top-level invocation). */
  rootExecutionId: string;
  workflowName: string;
  /** The folder holding the workflow's files (prompt and secret-file references resolve here). */
  workflowDirectory: string;
  /** The folder the workflow was invoked from: where its work happens. */
  invocationDirectory: string;
  /** Aborted when the invocation is cancelled; pass it to your own fetches and subprocesses. */
  signal: AbortSignal;
  /** The `overrides` of this invocation (for a child: the bindings its parent gave it), read-only. */
  overrides: Readonly<InvocationOverrides>;
}

/**
 * Facts about the running workflow invocation.
 * @throws StratosError STRATOS_RUNTIME_NO_CONTEXT when called outside a running workflow.
 * @example
 * run(input) {
 *   const {executionId, invocationDirectory} = currentExecution();
 *   return {summary: `run ${executionId} in ${invocationDirectory}`};
 * }
 */
export function currentExecution(): ExecutionInfo {
  const context = requireExecutionContext('currentExecution()');
  return {
    executionId: context.executionId,
    rootExecutionId: context.rootExecutionId,
    workflowName: context.workflow.name,
    workflowDirectory: context.workflow.directory,
    invocationDirectory: context.invocationDirectory,
    signal: context.abortController.signal,
    overrides: deepFreeze(structuredClone(context.overrides)),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
