export {type ChildWorkflow, type ChildWorkflowBindings, createChildWorkflow} from './child-workflow.ts';
export {currentExecution, type ExecutionInfo} from './current-execution.ts';
export {
  type ExecutionContext,
  findExecutionContext,
  type InvocationOverrides,
  requireExecutionContext,
  runInExecutionContext,
} from './execution-context.ts';
export {
  createExecutionId,
  type InvocationResult,
  type InvokeWorkflowOptions,
  invokeWorkflow,
} from './invoke-workflow.ts';
export {type CleanupFailure, type OwnedResource, ResourceRegistry} from './resource-registry.ts';
