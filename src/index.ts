/** The authoring entry: `import {workflow} from '@stratoscli/stratos'`. Named re-exports only. */

// Selection: which harness and model an agent runs on, and what was skipped (`agent.selection`).
export type {AgentSelection, SelectionSkip} from './agents/index.ts';
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

// Decision: decision() loads its provider lazily, so this adds no heavy module to the entry.
export {
  type AnswerOf,
  type ChoiceAnswer,
  type ChoiceOptions,
  type ChoiceQuestion,
  choice,
  type DecisionAnswers,
  type DecisionConfig,
  type DecisionRequest,
  type DecisionSettings,
  type DecisionState,
  decision,
  type NoulAnswer,
  type NoulQuestion,
  noul,
  type Question,
  type ScoreAnswer,
  type ScoreQuestion,
  score,
} from './decision/index.ts';
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
export {step} from './runtime/step.ts';
