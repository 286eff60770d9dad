export {
  type AdmissionGate,
  type ExecutionContext,
  findExecutionContext,
  type InvocationOverrides,
  type InvokedWorkflow,
  requireExecutionContext,
  runInExecutionContext,
} from './execution-context.ts';
export {type CleanupFailure, type OwnedResource, ResourceRegistry} from './resource-registry.ts';
export type {
  ScriptedAgentAnswer,
  ScriptedAnswers,
  ScriptedChildAnswer,
  ScriptedToolResult,
} from './scripted-answers.ts';
export {type BudgetBreach, type SpendRecord, SpendScope} from './spend-scope.ts';
