export {AgentRunError, type AgentRunErrorOptions} from './agent-run-error.ts';
export {
  AuthenticationError,
  type AuthenticationErrorCode,
  type AuthenticationErrorOptions,
} from './authentication-error.ts';
export {BudgetExceededError, type BudgetUnit} from './budget-exceeded-error.ts';
export {BuildError} from './build-error.ts';
export {type CauseLine, describeCauseText, visibleCauses} from './cause-text.ts';
export {type ErrorCode, errorCodes} from './codes.ts';
export {redactCredentialSecrets, registerCredentialSecret} from './credential-secrets.ts';
export {type Diagnostic, formatLocation, hasErrors} from './diagnostic.ts';
export {McpToolError, type McpToolErrorResult} from './mcp-tool-error.ts';
export {
  isStratosError,
  type SourceLocation,
  StratosError,
  type StratosErrorOptions,
} from './stratos-error.ts';
export {type InputIssue, WorkflowInputError} from './workflow-input-error.ts';
