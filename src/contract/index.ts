/** The authoring contract: `workflow()`, its rules as diagnostics, JSON Schema export and runtime validation. */

export {findJsonValueProblem, MAX_VALUE_DEPTH} from '../internal/json-value-limits.ts';
export {checkWorkflowContract, reservedInputField} from './check-contract.ts';
export type {ContractSide} from './contract-rules.ts';
export {
  isWorkflowDefinition,
  type WorkflowDefinition,
  type WorkflowOptions,
  type WorkflowResult,
  workflow,
} from './define-workflow.ts';
export {
  collectUnresolvedRefs,
  exportJsonSchemas,
  exportSideSchema,
  type JsonSchema,
  type WorkflowJsonSchemas,
} from './json-schema-export.ts';
export {
  formatValidationIssues,
  type ValidationIssue,
  type ValidationResult,
  validateWorkflowInput,
  validateWorkflowOutput,
} from './validate.ts';
