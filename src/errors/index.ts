export {BuildError} from './build-error.ts';
export {type ErrorCode, errorCodes} from './codes.ts';
export {type Diagnostic, formatLocation, hasErrors} from './diagnostic.ts';
export {
  isStratosError,
  type SourceLocation,
  StratosError,
  type StratosErrorOptions,
} from './stratos-error.ts';
export {type InputIssue, WorkflowInputError} from './workflow-input-error.ts';
