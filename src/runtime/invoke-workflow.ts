/**
 * One workflow invocation, as in ARCHITECTURE.md "The invocation pipeline" from step 4: split overrides, validate
 * input, open the execution context, call run, validate output, close the context. Failures come back as data
 * with a StratosError; cleanup failures are reported beside the result and never replace it.
 */
import {randomBytes} from 'node:crypto';
import {
  formatValidationIssues,
  validateWorkflowInput,
  validateWorkflowOutput,
  type WorkflowDefinition,
} from '../contract/index.ts';
import {isStratosError, StratosError, WorkflowInputError} from '../errors/index.ts';
import {isRecord} from '../internal/json-file.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import {silentTelemetry} from '../telemetry/index.ts';
import {type ExecutionContext, runInExecutionContext} from './execution-context.ts';
import {type CleanupFailure, ResourceRegistry} from './resource-registry.ts';
import {splitOverrides} from './split-overrides.ts';

export interface InvokeWorkflowOptions {
  workflow: {name: string; directory: string; manifest: WorkflowManifest};
  definition: WorkflowDefinition;
  input: unknown;
  invocationDirectory: string;
  parent?: ExecutionContext;
  /**
   * Overrides bound by a parent for a child invocation. When set, the input carries no `overrides` key of its
   * own: a parent's overrides never leak into a child.
   */
  overrides?: ExecutionContext['overrides'];
  /** Cancels the invocation from outside (the CLI's SIGINT, a parent closing before its child). */
  signal?: AbortSignal;
}

interface InvocationFacts {
  executionId: string;
  rootExecutionId: string;
  workflow: string;
  startedAt: string;
  durationMs: number;
  cleanupFailures: CleanupFailure[];
}

export type InvocationResult =
  | (InvocationFacts & {ok: true; output: Record<string, unknown>})
  | (InvocationFacts & {ok: false; error: StratosError});

export function createExecutionId(): string {
  return randomBytes(8).toString('hex');
}

export async function invokeWorkflow(options: InvokeWorkflowOptions): Promise<InvocationResult> {
  const executionId = createExecutionId();
  const startedAt = new Date();
  const name = options.workflow.name;
  const facts = (cleanupFailures: CleanupFailure[]): InvocationFacts => ({
    executionId,
    rootExecutionId: options.parent?.rootExecutionId ?? executionId,
    workflow: name,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(Date.now() - startedAt.getTime()),
    cleanupFailures,
  });

  let validInput: Record<string, unknown>;
  let context: ExecutionContext;
  try {
    if (!isRecord(options.input)) {
      throw new WorkflowInputError(name, [{path: '', message: 'Expected a JSON object of input fields.'}]);
    }
    const split =
      options.overrides === undefined
        ? splitOverrides(name, options.input)
        : {input: options.input, overrides: options.overrides};
    const validated = await validateWorkflowInput(options.definition, split.input);
    if (!validated.ok) throw new WorkflowInputError(name, validated.issues);
    validInput = validated.value as Record<string, unknown>;
    context = openContext(options, executionId, startedAt, split.overrides);
  } catch (error) {
    return {...facts([]), ok: false, error: asStratosError(error, name)};
  }

  let outcome: {ok: true; output: Record<string, unknown>} | {ok: false; error: StratosError};
  try {
    const returned = await runInExecutionContext(context, () => options.definition.run(validInput as never));
    const validated = await validateWorkflowOutput(options.definition, returned);
    outcome = validated.ok
      ? {ok: true, output: validated.value as Record<string, unknown>}
      : {
          ok: false,
          error: new StratosError(
            'STRATOS_OUTPUT_INVALID',
            `Workflow '${name}' returned a value that does not match its output schema:\n${formatValidationIssues(validated.issues)}`,
            {details: {workflow: name, issues: validated.issues}},
          ),
        };
  } catch (error) {
    outcome = {ok: false, error: asStratosError(error, name)};
  }
  if (!outcome.ok) context.abortController.abort(outcome.error);
  const cleanupFailures = await context.resources.closeAll();
  return {...facts(cleanupFailures), ...outcome};
}

function openContext(
  options: InvokeWorkflowOptions,
  executionId: string,
  startedAt: Date,
  overrides: ExecutionContext['overrides'],
): ExecutionContext {
  const abortController = new AbortController();
  const parentSignal = options.parent?.abortController.signal ?? options.signal;
  if (parentSignal !== undefined) {
    if (parentSignal.aborted) abortController.abort(parentSignal.reason);
    else
      parentSignal.addEventListener('abort', () => abortController.abort(parentSignal.reason), {once: true});
  }
  return {
    executionId,
    rootExecutionId: options.parent?.rootExecutionId ?? executionId,
    workflow: options.workflow,
    invocationDirectory: options.invocationDirectory,
    overrides,
    ancestors:
      options.parent === undefined ? [] : [...options.parent.ancestors, options.parent.workflow.name],
    abortController,
    resources: new ResourceRegistry(),
    telemetry: silentTelemetry,
    startedAt,
  };
}

function asStratosError(error: unknown, workflow: string): StratosError {
  if (isStratosError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StratosError('STRATOS_RUN_FAILED', `Workflow '${workflow}' failed: ${message}`, {
    cause: error,
    details: {workflow},
  });
}
