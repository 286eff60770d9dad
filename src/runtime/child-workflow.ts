/**
 * Child workflows: what generated `<root>/.generated/<name>.ts` factories call. Every `execute(input)` is a real
 * invocation of the child (its own manifest, validation, execution id and cleanup) under the calling invocation:
 * the parent's invocation directory, root run and cancellation, none of its overrides. Under `stratos test` a
 * child the case scripts is still a real invocation of that child (contract, span, cleanup) whose run returns the
 * scripted output or throws the scripted error.
 */
import {dirname, join} from 'node:path';
import {
  type ExecutionContext,
  type InvocationOverrides,
  requireExecutionContext,
} from '../context/execution-context.ts';
import type {RecordedAnswer} from '../context/recorded-steps.ts';
import {describeReplayedStep, journaledFailure} from '../context/replayed-step.ts';
import type {CleanupFailure} from '../context/resource-registry.ts';
import type {ScriptedChildAnswer} from '../context/scripted-answers.ts';
import {openStep} from '../context/step-seam.ts';
import {formatValidationIssues, type ValidationIssue} from '../contract/validate.ts';
import {discoverRoot, readWorkflowFolder, type WorkflowHandle} from '../discovery/index.ts';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {executeWorkflow} from './execute-workflow.ts';

/** Agent and decision settings and a budget bound for a child, with the precedence of invocation overrides. */
export type ChildWorkflowBindings = InvocationOverrides;

/** A child workflow. Unlike an agent it holds no memory: each execute is a new invocation; calls may overlap. */
export interface ChildWorkflow<Input, Output> {
  readonly name: string;
  execute(input: Input): Promise<Output>;
}

/**
 * Creates the object a parent uses to call the child workflow `name` of its own discovery root.
 * @throws StratosError STRATOS_RUNTIME_NO_CONTEXT (execute outside a run), STRATOS_WORKFLOW_CYCLE (the child is an
 * active ancestor), STRATOS_WORKFLOW_CHILD_FAILED (the child failed; `cause` holds its error).
 */
export function createChildWorkflow<Input, Output>(
  name: string,
  bindings: ChildWorkflowBindings = {},
): ChildWorkflow<Input, Output> {
  const overrides = structuredClone(bindings);
  return {
    name,
    execute: (input) => executeChild<Output>(name, input, overrides),
  };
}

async function executeChild<Output>(
  name: string,
  input: unknown,
  overrides: InvocationOverrides,
): Promise<Output> {
  const parent = requireExecutionContext(`Child workflow '${name}' execute()`);
  assertDeclaredChild(parent, name);
  const active = [...parent.ancestors, parent.workflow.name];
  if (active.includes(name)) {
    const cycle = [...active.slice(active.indexOf(name)), name].join(' → ');
    throw new StratosError(
      'STRATOS_WORKFLOW_CYCLE',
      `Workflow '${parent.workflow.name}' called '${name}', which is still active: ${cycle}. A workflow may not call an active ancestor.`,
      {details: {cycle: [...active.slice(active.indexOf(name)), name]}},
    );
  }
  // The same seam answers a journaled child (resume) and a scripted one (`stratos test`, which throws when the case
  // scripts no such call): the child is invoked with that result in place of its run.
  const step = openStep(parent, {kind: 'child', name, arguments: input ?? null});
  const recorded = step.answer({input});
  const scripted = recorded === undefined ? undefined : readChildAnswer(recorded);
  const cancel = new AbortController();
  let settled: Promise<unknown> = Promise.resolve();
  const unregister = parent.resources.register({
    label: `workflow:${name}`,
    close: async () => {
      cancel.abort(
        new StratosError(
          'STRATOS_RUN_CANCELLED',
          `Workflow '${parent.workflow.name}' ended before its child '${name}'.`,
        ),
      );
      await settled.catch(() => {});
    },
  });
  const run = executeWorkflow({
    resolve: () => findChild(parent.workflow.directory, name),
    input,
    invocationDirectory: parent.invocationDirectory,
    parent,
    overrides,
    signal: cancel.signal,
    ...(scripted === undefined ? {} : {scriptedRun: () => scriptedRun(name, scripted, recorded)}),
    ...(parent.steps === undefined ? {} : {steps: parent.steps.within(step.key)}),
  }).then(({result}) => result);
  settled = run;
  try {
    const result = await run;
    if (scripted === undefined) {
      const outcome = result.ok ? {value: result.output} : journaledFailure(result.error);
      if (outcome !== undefined) await step.complete(outcome);
    }
    if (result.ok) return result.output as Output;
    if (scripted?.output !== undefined && result.error.code === 'STRATOS_OUTPUT_INVALID')
      rejectScriptedOutput(recorded, result.error);
    throw childFailure(name, result.error, result.executionId, result.cleanupFailures);
  } catch (error) {
    if (error instanceof StratosError && error.code === 'STRATOS_WORKFLOW_CHILD_FAILED') throw error;
    throw childFailure(name, error, undefined);
  } finally {
    unregister();
  }
}

/**
 * Workflow references are explicit: a parent calls only the children its build saw (imports of their generated
 * wrappers), which were built first and type-checked against. A name computed at run time is refused.
 */
function assertDeclaredChild(parent: ExecutionContext, name: string): void {
  const declared = parent.workflow.children;
  if (declared === undefined || declared.includes(name)) return;
  const {name: workflow, directory} = parent.workflow;
  const known = declared.length === 0 ? 'none' : declared.map((child) => `'${child}'`).join(', ');
  throw new StratosError(
    'STRATOS_WORKFLOW_CHILD_UNDECLARED',
    `Workflow '${workflow}' called child workflow '${name}', which its build did not see (children it imports: ${known}). ` +
      `Call a child only through its generated wrapper, the default export of .generated/${name}.js in the discovery root, imported with a literal path by the code in ${directory}; then run 'stratos build ${workflow}'.`,
    {details: {workflow, child: name, children: [...declared]}},
  );
}

/** The run of a scripted or journaled child: the recorded result, marked on the child's workflow span. */
function scriptedRun(
  name: string,
  answer: ScriptedChildAnswer,
  recorded: RecordedAnswer | undefined,
): Record<string, unknown> {
  const telemetry = requireExecutionContext(`Child workflow '${name}'`).telemetry;
  if (recorded?.source === 'journal')
    telemetry.event('stratos.replayed', describeReplayedStep(recorded.entry));
  else
    telemetry.event('stratos.workflow.scripted', {
      'stratos.workflow.scripted': answer.error === undefined ? 'output' : answer.error.code,
    });
  if (answer.error !== undefined)
    throw new StratosError(answer.error.code, answer.error.message, {
      details: {workflow: name, scripted: true},
    });
  return structuredClone(answer.output);
}

/** A recorded child step as the child's result: a case's scripted answer, or a journaled output or error. */
function readChildAnswer(recorded: RecordedAnswer): ScriptedChildAnswer {
  if (recorded.source === 'case') return recorded.value as ScriptedChildAnswer;
  const {outcome} = recorded.entry;
  return outcome.error === undefined
    ? {output: structuredClone(outcome.value) as Record<string, unknown>}
    : {error: outcome.error as ScriptedChildAnswer['error'] & object};
}

/** A scripted output the child's own output schema refuses is the case's fault: the case fails, naming it. */
function rejectScriptedOutput(recorded: RecordedAnswer | undefined, error: StratosError): void {
  const issues = error.details?.issues as ValidationIssue[] | undefined;
  // One line: it is shown as one problem of the case.
  const problem =
    issues === undefined ? error.message : formatValidationIssues(issues).replaceAll('\n- ', '; ').slice(2);
  if (recorded?.source === 'case') recorded.reject?.(problem);
}

function childFailure(
  name: string,
  error: unknown,
  executionId: string | undefined,
  cleanupFailures: CleanupFailure[] = [],
): StratosError {
  // A plain throw inside the child was already wrapped once (STRATOS_RUN_FAILED): show its own words.
  const inner =
    error instanceof StratosError && error.code === 'STRATOS_RUN_FAILED' && error.cause !== undefined
      ? error.cause
      : error;
  const message = describeError(inner);
  const code = error instanceof StratosError ? error.code : undefined;
  return new StratosError('STRATOS_WORKFLOW_CHILD_FAILED', `Child workflow '${name}' failed: ${message}`, {
    cause: error,
    details: {
      workflow: name,
      ...(executionId === undefined ? {} : {executionId}),
      ...(code === undefined ? {} : {code}),
      ...(cleanupFailures.length === 0
        ? {}
        : {cleanupFailures: cleanupFailures.map((f) => ({code: f.error.code, message: f.error.message}))}),
    },
  });
}

async function findChild(parentDirectory: string, name: string): Promise<WorkflowHandle> {
  const root = {kind: 'path' as const, directory: dirname(parentDirectory)};
  const direct = await readWorkflowFolder(join(root.directory, name), root);
  const handle =
    direct?.name === name ? direct : (await discoverRoot(root)).find((candidate) => candidate.name === name);
  if (handle === undefined) {
    throw new StratosError(
      'STRATOS_WORKFLOW_NOT_FOUND',
      `Child workflow '${name}' was not found in ${root.directory}. Children must live in the parent's discovery root.`,
    );
  }
  return handle;
}
