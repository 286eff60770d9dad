/**
 * One workflow invocation, as in docs/contributing/architecture.md "The invocation pipeline" from step 4: split overrides, validate
 * input, open the execution context, call run, validate output, close the context. Failures come back as data
 * with a StratosError; cleanup failures are reported beside the result and never replace it.
 */
import {resolveReferenceMap} from '../config/index.ts';
import {
  type ExecutionContext,
  type InvokedWorkflow,
  runInExecutionContext,
} from '../context/execution-context.ts';
import type {RecordedSteps} from '../context/recorded-steps.ts';
import {type CleanupFailure, ResourceRegistry} from '../context/resource-registry.ts';
import type {StepSeam} from '../context/step-seam.ts';
import type {WorkflowDefinition} from '../contract/define-workflow.ts';
import {formatValidationIssues, validateWorkflowInput, validateWorkflowOutput} from '../contract/validate.ts';
import {
  isStratosError,
  type SourceLocation,
  StratosError,
  type StratosErrorOptions,
  WorkflowInputError,
} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {isRecord} from '../internal/json-file.ts';
import {randomHex} from '../internal/random-hex.ts';
import {resolveStratosHome} from '../internal/stratos-home.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import {
  closeInvocationTelemetry,
  type InvocationRecorder,
  type InvocationTelemetryReport,
  openInvocationTelemetry,
  type TelemetryDiagnostic,
} from '../telemetry/index.ts';
import {RunWorktrees} from '../worktrees/run-worktrees.ts';
import {AdmissionLimiter} from './admission.ts';
import {openInvocationSpend, recordInvocationSpend} from './invocation-spend.ts';
import {describeWorktreeResume, openRunJournal, type ResumeSource} from './run-journal.ts';
import {endRunningBody, watchRunningBody} from './running-bodies.ts';
import {splitOverrides} from './split-overrides.ts';
import {untilCancelled} from './until-cancelled.ts';

export interface InvokeWorkflowOptions {
  workflow: InvokedWorkflow;
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
  /** Where notices for the person at the terminal go (a sign-in URL); a child inherits its parent's. */
  notify?: (message: string) => void;
  /** When set, a top-level run writes run.json, run.log and events.jsonl under `<stratosHome>/runs/`. */
  stratosHome?: string;
  /** `stratos test`: the case that answers this run's steps (a child shares its parent's seam, and so its source). */
  recorded?: RecordedSteps;
  /** A child's step seam (the parent's, within the child step); a top-level run opens its own journal. */
  steps?: StepSeam;
  /** `stratos runs resume`: the interrupted run's journal answers the steps it completed. */
  resume?: ResumeSource;
  /**
   * The preparation that came before (freshness check, build, load): the invocation starts when it started, and
   * it is the first span under the workflow span.
   */
  preparation?: WorkflowPreparation;
}

/** When a workflow's preparation ran and what its build did (`reused` for a fresh build). */
export interface WorkflowPreparation {
  startedAt: Date;
  /** Epoch ms. */
  endMs: number;
  status: string;
}

interface InvocationFacts {
  executionId: string;
  rootExecutionId: string;
  workflow: string;
  startedAt: string;
  durationMs: number;
  cleanupFailures: CleanupFailure[];
  /** The top-level run's artifact folder (run.json, run.log, events.jsonl), when it could be written. */
  runDirectory?: string;
  /** Artifact and trace-export problems: warnings, never a failure of the run. */
  telemetryWarnings: TelemetryDiagnostic[];
}

export type InvocationResult =
  | (InvocationFacts & {ok: true; output: Record<string, unknown>})
  | (InvocationFacts & {ok: false; error: StratosError});

export function createExecutionId(): string {
  return randomHex(8);
}

export async function invokeWorkflow(options: InvokeWorkflowOptions): Promise<InvocationResult> {
  const executionId = createExecutionId();
  const startedAt = options.preparation?.startedAt ?? new Date();
  const name = options.workflow.name;
  const facts = (cleanupFailures: CleanupFailure[]): InvocationFacts => ({
    executionId,
    rootExecutionId: options.parent?.rootExecutionId ?? executionId,
    workflow: name,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(Date.now() - startedAt.getTime()),
    cleanupFailures,
    telemetryWarnings: [],
  });
  const abortController = createAbortController(options);
  const telemetry = await openTelemetry(options, executionId, startedAt, abortController.signal);
  if (options.preparation !== undefined) recordPreparation(telemetry, name, options.preparation);

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
    context = openContext(options, executionId, startedAt, split.overrides, abortController, telemetry);
    context.steps =
      options.steps ??
      openRunJournal({
        workflow: options.workflow,
        input: options.input,
        invocationDirectory: options.invocationDirectory,
        runDirectory: telemetry.run.artifacts?.directory,
        resume: options.resume,
        source: options.recorded,
        report: (message) => telemetry.run.report('STRATOS_TELEMETRY_ARTIFACT_FAILED', message),
      });
  } catch (error) {
    const failed = {ok: false as const, error: asStratosError(error, name)};
    const done = facts([]);
    return {...done, ...withReport(await closeTelemetry(telemetry, failed, options)), ...failed};
  }

  let outcome: {ok: true; output: Record<string, unknown>} | {ok: false; error: StratosError};
  try {
    // Step 6: workflow-start authentication of the manifest's OAuth MCP servers; a failure keeps run from starting.
    if (declaresOAuthServers(context.workflow.manifest)) {
      // The OAuth layer (credential store, SDK auth, fetch) loads only for workflows that declare OAuth servers.
      const {authenticateWorkflowStart} = await import('../mcp/auth/preflight.ts');
      await runInExecutionContext(context, () =>
        telemetry.activate(() => authenticateWorkflowStart(context)),
      );
    }
    const returned = await runInExecutionContext(context, () =>
      telemetry.activate(() =>
        untilCancelled(context.abortController.signal, name, () =>
          // An uncaught error, a process.exit call or a body that can never settle fails this run (running-bodies.ts).
          watchRunningBody(context, options.parent, () => options.definition.run(validInput as never)),
        ),
      ),
    );
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
    outcome = {ok: false, error: await describeRunFailure(error, options.workflow)};
  }
  // A body still pending here (cancelled from outside) is no longer this run's: later failures are late ones.
  endRunningBody(context);
  if (!outcome.ok) context.abortController.abort(outcome.error);
  const cleanupFailures = await context.resources.closeAll();
  for (const failure of cleanupFailures) {
    telemetry.event('stratos.cleanup.failed', {
      'stratos.cleanup.resource': failure.label,
      'error.type': failure.error.code,
      'stratos.cleanup.message': failure.error.message,
    });
  }
  // Worktrees: released once the top-level run and all its descendants have ended (src/worktrees/).
  if (options.parent === undefined && context.worktrees instanceof RunWorktrees)
    await context.worktrees.releaseAll((event, attributes) => telemetry.event(event, attributes), {
      succeeded: outcome.ok,
    });
  recordInvocationSpend(context, telemetry);
  const done = facts(cleanupFailures);
  return {...done, ...withReport(await closeTelemetry(telemetry, outcome, options)), ...outcome};
}

/** Preparation as its own span, with the times it was measured at (so a slow build shows as such). */
function recordPreparation(
  telemetry: InvocationRecorder,
  workflow: string,
  preparation: WorkflowPreparation,
): void {
  telemetry
    .begin({
      kind: 'workflow.prepare',
      name: `prepare ${workflow}`,
      startMs: preparation.startedAt.getTime(),
      attributes: {'stratos.workflow.name': workflow, 'stratos.build.status': preparation.status},
    })
    .end(undefined, preparation.endMs);
}

function declaresOAuthServers(manifest: WorkflowManifest): boolean {
  return Object.values(manifest.mcp?.servers ?? {}).some(
    (server) => server.type === 'http' && server.auth?.type === 'oauth',
  );
}

function openContext(
  options: InvokeWorkflowOptions,
  executionId: string,
  startedAt: Date,
  overrides: ExecutionContext['overrides'],
  abortController: AbortController,
  telemetry: InvocationRecorder,
): ExecutionContext {
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
    notify: options.notify ?? options.parent?.notify ?? (() => {}),
    admission: options.parent?.admission ?? new AdmissionLimiter(),
    telemetry,
    startedAt,
    // Worktrees: one gate per top-level run, shared with its descendants.
    worktrees:
      options.parent?.worktrees ??
      new RunWorktrees({
        runId: executionId,
        stratosHome: options.stratosHome ?? resolveStratosHome(),
        report: (diagnostic) => telemetry.run.report(diagnostic.code, diagnostic.message),
        ...describeWorktreeResume(telemetry.run.artifacts?.directory, options.resume),
      }),
    spend: openInvocationSpend({parent: options.parent, executionId, workflow: options.workflow, overrides}),
  };
}

/**
 * Aborted by the invocation itself on failure, by its parent's signal, and by the caller's own signal (the CLI's
 * SIGINT, or a parent ending before a child it did not await).
 */
function createAbortController(options: InvokeWorkflowOptions): AbortController {
  const abortController = new AbortController();
  for (const signal of [options.parent?.abortController.signal, options.signal]) {
    if (signal === undefined) continue;
    if (signal.aborted) abortController.abort(signal.reason);
    else signal.addEventListener('abort', () => abortController.abort(signal.reason), {once: true});
  }
  return abortController;
}

/** The invocation's recorder: a workflow span in the root run's trace; a new run (and artifacts) at the top. */
function openTelemetry(
  options: InvokeWorkflowOptions,
  executionId: string,
  startedAt: Date,
  signal: AbortSignal,
): Promise<InvocationRecorder> {
  const {name, directory, manifest} = options.workflow;
  return openInvocationTelemetry({
    executionId,
    startedAt,
    workflow: {
      name,
      version: manifest.version,
      shortDescription: manifest.shortDescription,
      directory,
      exporters: manifest.telemetry?.exporters,
      secretSources: manifest.mcp,
    },
    invocationDirectory: options.invocationDirectory,
    input: options.input,
    parent: options.parent?.telemetry,
    signal,
    stratosHome: options.stratosHome,
    ...(options.resume === undefined ? {} : {resumedFrom: options.resume.resumedFrom}),
    resolveReferences: (values, field) => resolveReferenceMap(values, {directory, field}),
  });
}

/** Ends the workflow span; for a top-level run also writes the final run.json and flushes trace export. */
function closeTelemetry(
  telemetry: InvocationRecorder,
  outcome: {ok: true; output: Record<string, unknown>} | {ok: false; error: StratosError},
  options: InvokeWorkflowOptions,
): Promise<InvocationTelemetryReport> {
  const {location} = outcome.ok ? {location: undefined} : outcome.error;
  return closeInvocationTelemetry(telemetry, {
    ...(outcome.ok
      ? outcome
      : {
          ok: false,
          error: {
            code: outcome.error.code,
            message: outcome.error.message,
            cause: outcome.error.cause,
            ...(location === undefined ? {} : {location}),
          },
        }),
    cancelledFromOutside:
      options.parent?.abortController.signal.aborted === true || options.signal?.aborted === true,
  });
}

function withReport(
  report: InvocationTelemetryReport,
): Pick<InvocationFacts, 'runDirectory' | 'telemetryWarnings'> {
  return {
    ...(report.runDirectory === undefined ? {} : {runDirectory: report.runDirectory}),
    telemetryWarnings: report.diagnostics,
  };
}

function asStratosError(
  error: unknown,
  workflow: string,
  location?: StratosErrorOptions['location'],
): StratosError {
  if (isStratosError(error)) return error;
  const message = describeError(error);
  return new StratosError('STRATOS_RUN_FAILED', `Workflow '${workflow}' failed: ${message}`, {
    cause: error,
    location,
    details: {workflow},
  });
}

/**
 * An error that escaped workflow code, its stack rewritten in terms of the authored `.ts` files (`--verbose` shows
 * it), with the workflow's own frame as its location: a plain one wrapped as STRATOS_RUN_FAILED, a Stratos error
 * without a location given one. The mapping loads only on this path.
 */
async function describeRunFailure(
  error: unknown,
  workflow: {name: string; directory: string},
): Promise<StratosError> {
  if (!(error instanceof Error) && !isStratosError(error)) return asStratosError(error, workflow.name);
  const {mapErrorStack} = await import('./map-error-stack.ts');
  const mapped = mapErrorStack(error as Error, workflow.directory);
  try {
    (error as Error).stack = mapped.stack;
  } catch {
    // A frozen error keeps its compiled stack; the location below is still right.
  }
  if (isStratosError(error)) {
    // A Stratos error from a call the workflow made (an MCP tool error, an agent failure) gets the call's line
    // when it has no location of its own. It escaped the workflow, so nothing else holds it.
    if (error.location === undefined && mapped.location !== undefined)
      (error as {location: SourceLocation | undefined}).location = mapped.location;
    return error;
  }
  return asStratosError(error, workflow.name, mapped.location);
}
