/** The authoring entry: `import {workflow} from '@stratoscli/stratos'`. Named re-exports only. */

export {
  type AfterToolDecision,
  type Agent,
  type AgentConfig,
  type AgentConfigFields,
  type AgentEffort,
  type AgentEvent,
  type AgentHooks,
  type AgentLifecycleEvent,
  type AgentSettings,
  type BeforeToolDecision,
  createAgent,
  type HarnessId,
  type ResolvedAgentSettings,
  type ToolCall,
} from './agents/index.ts';
export type {PromptReference, PromptVariables} from './config/prompts.ts';
export {isWorkflowDefinition, type WorkflowDefinition, workflow} from './contract/define-workflow.ts';
export {
  AgentRunError,
  AuthenticationError,
  BuildError,
  type Diagnostic,
  type ErrorCode,
  errorCodes,
  type InputIssue,
  isStratosError,
  McpToolError,
  type McpToolErrorResult,
  type SourceLocation,
  StratosError,
  WorkflowInputError,
} from './errors/index.ts';
// Straight from the module, not runtime/index.ts: the entry must not load the build layer (compiler, parser).
export {currentExecution, type ExecutionInfo} from './runtime/current-execution.ts';
