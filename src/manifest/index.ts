/** The workflow.yaml manifest: parsing, validation, description budgets and source locations. */

export {budgetAmountProblem, checkBudgetValue} from './budget-value.ts';
export {
  checkDecisionField,
  type DecisionField,
  type DecisionFieldProblem,
  type DecisionProvider,
  decisionFields,
  decisionProviders,
} from './decision-fields.ts';
export {
  countCodePoints,
  internalLineBreak,
  longDescriptionLimit,
  longDescriptionTarget,
  shortDescriptionLimit,
  shortDescriptionTarget,
} from './descriptions.ts';
export {
  defaultEntrypoint,
  entrypointProblem,
  isSemanticVersion,
  nameProblem,
  ownedFolderOf,
  workflowNameMaxLength,
  workflowNamePattern,
} from './field-formats.ts';
export {formatPath, type LocateTarget, type ManifestLocator, type ManifestPath} from './locate.ts';
export {findYamlDepthProblem} from './manifest-limits.ts';
export {mcpServerNamePattern} from './mcp-servers.ts';
export {clientAssertionAlgorithms} from './oauth-config.ts';
export {type ManifestParseResult, parseManifest} from './parse-manifest.ts';
export {manifestFileName, readManifest} from './read-manifest.ts';
export {otlpProtocols} from './telemetry.ts';
export type {
  HttpMcpServerConfig,
  McpServerConfig,
  OAuthConfig,
  StdioMcpServerConfig,
  TelemetryExporterConfig,
  WorkflowBudget,
  WorkflowManifest,
} from './types.ts';
export {manifestFields} from './validate-fields.ts';
