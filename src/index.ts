/** The authoring entry: `import {workflow} from '@stratoscli/stratos'`. Named re-exports only. */
export {isWorkflowDefinition, type WorkflowDefinition, workflow} from './contract/index.ts';
export {
  BuildError,
  type Diagnostic,
  type ErrorCode,
  errorCodes,
  type InputIssue,
  isStratosError,
  type SourceLocation,
  StratosError,
  WorkflowInputError,
} from './errors/index.ts';
export {currentExecution, type ExecutionInfo} from './runtime/index.ts';
