export {
  type ExecutionContext,
  findExecutionContext,
  type InvocationOverrides,
  requireExecutionContext,
  runInExecutionContext,
} from '../context/execution-context.ts';
export {type CleanupFailure, type OwnedResource, ResourceRegistry} from '../context/resource-registry.ts';
export {type ChildWorkflow, type ChildWorkflowBindings, createChildWorkflow} from './child-workflow.ts';
export {currentExecution, type ExecutionInfo} from './current-execution.ts';
export {type ExecutedWorkflow, type ExecuteWorkflowOptions, executeWorkflow} from './execute-workflow.ts';
export {
  createExecutionId,
  type InvocationResult,
  type InvokeWorkflowOptions,
  invokeWorkflow,
} from './invoke-workflow.ts';
