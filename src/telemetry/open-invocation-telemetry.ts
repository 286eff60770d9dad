/**
 * The runtime's two calls: `openInvocationTelemetry` when an invocation starts (a new run for a top-level
 * invocation, the parent's run for a child) and `closeInvocationTelemetry` when it ends (for a top-level run:
 * final run.json and trace export flushed within a bounded time). Neither throws: telemetry problems come back as
 * warnings.
 */
import type {SourceLocation} from '../errors/index.ts';
import {packageVersion} from '../internal/package-info.ts';
import {RunArtifacts} from './artifacts/run-artifacts.ts';
import {RUN_SCHEMA_VERSION, type RunStatus, summarizeValue} from './artifacts/run-record.ts';
import {installConsoleCapture} from './console-capture.ts';
import {credentialEnvironmentValues, isCredentialEnvironmentName} from './environment-secrets.ts';
import {type ExporterSettings, type HeaderResolver, resolveDestinations} from './export/destinations.ts';
import {InvocationRecorder, isCancellationError} from './invocation-recorder.ts';
import type {InvocationTelemetry} from './invocation-telemetry.ts';
import {nowMs} from './recording-scope.ts';
import {isCredentialKey} from './redaction.ts';
import {RunRecorder} from './run-recorder.ts';
import {errorMessage, type TelemetryDiagnostic} from './telemetry-diagnostic.ts';

export interface OpenInvocationTelemetryOptions {
  executionId: string;
  startedAt: Date;
  workflow: {
    name: string;
    version: string;
    /** The manifest's catalog text, as stored (a workflow span attribute). */
    shortDescription?: string | undefined;
    directory: string;
    exporters?: readonly ExporterSettings[] | undefined;
    /** Configuration that holds credentials (the manifest's `mcp` section): its header, env and secret values. */
    secretSources?: unknown;
  };
  invocationDirectory: string;
  /** The raw invocation input (summarized, redacted, in run.json). */
  input: unknown;
  /** The parent invocation's telemetry for a child workflow. */
  parent?: InvocationTelemetry | undefined;
  /** The invocation's own abort signal: operations failing after it fired are recorded as cancelled. */
  signal: AbortSignal;
  /** When set, a top-level run writes run.json, run.log and events.jsonl under `<stratosHome>/runs/`. */
  stratosHome?: string | undefined;
  /** The run folder name of the interrupted run this one resumes (`resumedFrom` in run.json). */
  resumedFrom?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Resolves `{env:}`/`{file:}` references of a value map (config/references.ts, injected by the runtime). */
  resolveReferences: HeaderResolver;
}

export interface InvocationTelemetryReport {
  /** The run folder of the top-level run, when its artifacts could be written. */
  runDirectory?: string;
  /** Artifact and export problems (top-level runs report those of the whole run). */
  diagnostics: TelemetryDiagnostic[];
}

export async function openInvocationTelemetry(
  options: OpenInvocationTelemetryOptions,
): Promise<InvocationRecorder> {
  installConsoleCapture();
  const startMs = options.startedAt.getTime();
  const parent = options.parent instanceof InvocationRecorder ? options.parent : undefined;
  const run = parent?.run ?? new RunRecorder(options.executionId, resourceAttributes(options.executionId));
  const env = options.env ?? process.env;
  if (parent === undefined)
    for (const value of credentialEnvironmentValues(env)) run.redactor.addSecret(value);
  await collectSecrets(run, options);

  const resolved = await resolveDestinations(
    options.workflow.exporters ?? [],
    options.workflow.directory,
    options.resolveReferences,
  );
  for (const problem of resolved.problems) {
    run.report(
      'STRATOS_TELEMETRY_DESTINATION_INVALID',
      `Trace destination ${problem.label} of workflow '${options.workflow.name}' is skipped: ${errorMessage(problem.error)}`,
    );
  }
  const destinationKeys = [
    ...new Set([...(parent?.destinationKeys ?? []), ...resolved.destinations.map((d) => d.key)]),
  ];
  await run.addDestinations(resolved.destinations);

  if (parent === undefined && options.stratosHome !== undefined) {
    try {
      run.artifacts = await RunArtifacts.create(
        options.stratosHome,
        {
          schemaVersion: RUN_SCHEMA_VERSION,
          executionId: options.executionId,
          traceId: run.traceId,
          workflow: {
            name: options.workflow.name,
            version: options.workflow.version,
            directory: options.workflow.directory,
          },
          invocationDirectory: options.invocationDirectory,
          status: 'running',
          startedAt: options.startedAt.toISOString(),
          pid: process.pid,
          stratosVersion: packageVersion(),
          input: summarizeValue(run.redactor.redactValue(options.input)),
          ...(options.resumedFrom === undefined ? {} : {resumedFrom: options.resumedFrom}),
        },
        (file, error) =>
          run.report(
            'STRATOS_TELEMETRY_ARTIFACT_FAILED',
            `Writing ${file} of the run failed: ${errorMessage(error)}`,
          ),
      );
    } catch (error) {
      run.report(
        'STRATOS_TELEMETRY_ARTIFACT_FAILED',
        `The run folder under ${options.stratosHome}/runs could not be created: ${errorMessage(error)}`,
      );
    }
  }

  return new InvocationRecorder({
    run,
    identity: {
      executionId: options.executionId,
      workflow: {
        name: options.workflow.name,
        version: options.workflow.version,
        shortDescription: options.workflow.shortDescription,
      },
      ...(parent === undefined ? {} : {parentExecutionId: parent.identity.executionId}),
    },
    destinationKeys,
    parentSpan: parent?.activeSpan(),
    signal: options.signal,
    startMs,
  });
}

export interface InvocationOutcome {
  ok: boolean;
  output?: unknown;
  /** `cause`: the error's cause, recorded with the workflow span's error as its `Caused by` chain. */
  error?: {code: string; message: string; cause?: unknown; location?: SourceLocation};
  /** The invocation was cancelled from outside (SIGINT, a cancelled parent). */
  cancelledFromOutside: boolean;
}

export async function closeInvocationTelemetry(
  telemetry: InvocationRecorder,
  outcome: InvocationOutcome,
): Promise<InvocationTelemetryReport> {
  const cancelled = !outcome.ok && (outcome.cancelledFromOutside || isCancellationError(outcome.error));
  const status = outcome.ok ? 'ok' : cancelled ? 'cancelled' : 'error';
  telemetry.finish({status, ...(outcome.error === undefined ? {} : {error: outcome.error})});
  const run = telemetry.run;
  if (telemetry.identity.parentExecutionId !== undefined) return {diagnostics: []};
  const endMs = nowMs();
  const runStatus: RunStatus = outcome.ok ? 'succeeded' : cancelled ? 'cancelled' : 'failed';
  await run.close({
    status: runStatus,
    endedAt: new Date(endMs).toISOString(),
    durationMs: Math.round(endMs - telemetry.workflowSpan.startMs),
    ...(outcome.ok ? {output: summarizeValue(run.redactor.redactValue(outcome.output))} : {}),
    ...(outcome.error === undefined
      ? {}
      : {
          error: {
            code: outcome.error.code,
            message: run.redactor.redactString(outcome.error.message),
            ...(outcome.error.location === undefined ? {} : {location: outcome.error.location}),
          },
        }),
  });
  return {
    ...(run.artifacts === undefined ? {} : {runDirectory: run.artifacts.directory}),
    diagnostics: [...run.diagnostics],
  };
}

function resourceAttributes(rootExecutionId: string): Record<string, string> {
  return {
    'service.name': 'stratos',
    'service.version': packageVersion(),
    'stratos.root_execution.id': rootExecutionId,
  };
}

/**
 * Credential values of the configuration (MCP headers, stdio env, OAuth client secrets, exporter headers): every
 * value resolved from a `{env:}`/`{file:}` reference, and literal values under credential-like names. A literal
 * `Accept: application/json` is not a secret; redacting it would destroy unrelated text.
 */
async function collectSecrets(run: RunRecorder, options: OpenInvocationTelemetryOptions): Promise<void> {
  // [name, value, whether the name says it is a credential]; stdio `env` entries are environment variables.
  const entries: [string, string, boolean][] = [];
  const visit = (value: unknown, key: string | undefined, depth: number): void => {
    if (depth > 6 || typeof value !== 'object' || value === null) return;
    for (const [name, item] of Object.entries(value)) {
      if (typeof item === 'string' && (key === 'headers' || key === 'env' || name === 'clientSecret'))
        entries.push([name, item, key === 'env' ? isCredentialEnvironmentName(name) : isCredentialKey(name)]);
      else visit(item, name, depth + 1);
    }
  };
  visit(options.workflow.secretSources, undefined, 0);
  for (const exporter of options.workflow.exporters ?? []) {
    if (exporter.type === 'otlp')
      for (const [name, value] of Object.entries(exporter.headers ?? {}))
        entries.push([name, value, isCredentialKey(name)]);
  }
  for (const [name, value, named] of entries) {
    if (!hasReference(value)) {
      if (named) run.redactor.addSecret(value);
      continue;
    }
    try {
      const resolved = await options.resolveReferences({[name]: value}, () => `value '${name}'`);
      for (const item of Object.values(resolved)) run.redactor.addSecret(item);
    } catch {
      // The owner of the configuration reports an unresolved reference; there is no value to redact.
    }
  }
}

function hasReference(value: string): boolean {
  return /\{(env|file):[^{}]*\}/.test(value);
}
