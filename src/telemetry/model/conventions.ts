/**
 * Span names, kinds and attribute names. Stratos attributes use the `stratos.` namespace; AI operations use the
 * OpenTelemetry GenAI semantic conventions (`gen_ai.*`) and MCP calls the MCP conventions (`mcp.*`), so a trace
 * backend that knows those conventions reads Stratos spans without a Stratos-specific mapping.
 */

/** Outcome of one recorded operation. `incomplete`: its owner ended before it did (no end was observed). */
export type OperationStatus = 'ok' | 'error' | 'cancelled' | 'incomplete';

/** OpenTelemetry span kinds (numeric values of `SpanKind` in @opentelemetry/api, loaded lazily). */
export const spanKinds = {internal: 0, server: 1, client: 2, producer: 3, consumer: 4} as const;

export const attributeNames = {
  kind: 'stratos.operation.kind',
  outcome: 'stratos.outcome',
  workflowName: 'stratos.workflow.name',
  workflowVersion: 'stratos.workflow.version',
  workflowShortDescription: 'stratos.workflow.short_description',
  executionId: 'stratos.execution.id',
  rootExecutionId: 'stratos.root_execution.id',
  parentExecutionId: 'stratos.parent_execution.id',
  errorType: 'error.type',
  errorMessage: 'stratos.error.message',
  codeFilePath: 'code.file.path',
  codeLineNumber: 'code.line.number',
  codeColumnNumber: 'code.column.number',
  genAiOperation: 'gen_ai.operation.name',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
} as const;

/** GenAI `gen_ai.operation.name` for the operation kinds that are AI operations. */
const genAiOperations: Record<string, string> = {
  'agent.execute': 'invoke_agent',
  'agent.model': 'chat',
  'agent.tool': 'execute_tool',
  'mcp.call': 'execute_tool',
  decision: 'chat',
};

/** Work that waits on another process or service is a client span; everything else is internal. */
const clientKinds = new Set(['mcp.connect', 'mcp.call', 'agent.model', 'decision']);

export function spanKindOf(kind: string): number {
  return clientKinds.has(kind) ? spanKinds.client : spanKinds.internal;
}

/** Attributes every operation of `kind` carries; a caller's own attributes win. */
export function conventionAttributes(kind: string): Record<string, string> {
  const genAi = genAiOperations[kind];
  return genAi === undefined
    ? {[attributeNames.kind]: kind}
    : {[attributeNames.kind]: kind, [attributeNames.genAiOperation]: genAi};
}

export function workflowSpanName(workflow: string): string {
  return `workflow ${workflow}`;
}

/** Longest string recorded in one attribute or event field; longer text is cut with a marker. */
export const MAX_ATTRIBUTE_LENGTH = 16_384;

export function truncateText(text: string, limit = MAX_ATTRIBUTE_LENGTH): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters]`;
}
