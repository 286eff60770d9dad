/**
 * `stratos test [<workflow>]`: the saved cases of one workflow (or of every discovered workflow that has cases)
 * run as real invocations with scripted answers, in parallel up to `agents.maxActive` of settings.json at once.
 * Each workflow is built first when stale, one at a time (builds of a root share its links).
 */
import {loadWorkflowDefinition, prepareWorkflow, resolveWorkflowPaths} from '../builder/index.ts';
import {type CaseReport, runTestCase} from '../cases/run-test-case.ts';
import {type CaseFile, readTestCases} from '../cases/test-case.ts';
import {readSettings} from '../config/settings.ts';
import type {WorkflowDefinition} from '../contract/index.ts';
import type {WorkflowHandle} from '../discovery/index.ts';
import {type Diagnostic, isStratosError, StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {discover, findWorkflow, type HostOptions, resolveHost} from './host.ts';
import {type ProgressOptions, progressOption, warningsOf} from './progress.ts';

export interface TestWorkflowsOptions extends HostOptions, ProgressOptions {
  signal?: AbortSignal;
}

export interface TestWorkflowsResult {
  ok: boolean;
  cases: CaseReport[];
  summary: {total: number; passed: number; failed: number; errored: number; durationMs: number};
  warnings: Diagnostic[];
}

/**
 * Runs the cases and reports each one; `ok` is false when any failed or errored.
 * @throws StratosError STRATOS_WORKFLOW_* for an unknown target, STRATOS_TEST_NO_CASES for a target without cases.
 */
export async function testWorkflows(
  target: string | undefined,
  options: TestWorkflowsOptions = {},
): Promise<TestWorkflowsResult> {
  const started = Date.now();
  const host = resolveHost(options);
  const handles =
    target === undefined ? (await discover(host)).workflows : [await findWorkflow(host, target)];
  const warnings: Diagnostic[] = [];
  const reports: CaseReport[] = [];
  const runs: (() => Promise<CaseReport>)[] = [];
  for (const handle of handles) {
    const files = await readTestCases(handle.directory, host.cwd);
    if (files.length === 0) {
      if (target === undefined) continue;
      throw new StratosError(
        'STRATOS_TEST_NO_CASES',
        `Workflow '${handle.name}' has no test cases: add one as ${handle.directory}/tests/<case>.yaml (docs/testing.md), or record one from a run with 'stratos runs record <run> --case <name>'.`,
        {details: {workflow: handle.name, directory: handle.directory}},
      );
    }
    let definition: WorkflowDefinition;
    let children: string[];
    try {
      const prepared = await prepareWorkflow(handle, progressOption(options));
      warnings.push(...warningsOf(prepared.build.diagnostics));
      children = prepared.record.inputs.children.map((child) => child.name);
      definition = await loadWorkflowDefinition(
        prepared.record.compiledEntrypoint,
        handle.name,
        resolveWorkflowPaths(handle).entrypoint,
      );
    } catch (error) {
      // A build cancelled by SIGINT ends the command with the cancellation, not with errored cases.
      if (options.signal?.aborted === true) throw options.signal.reason;
      // A workflow that does not build errors every one of its cases with the build's code.
      for (const file of files) reports.push(erroredCase(handle, file, error));
      continue;
    }
    for (const file of files) {
      if (!file.ok) {
        reports.push(erroredCase(handle, file, file.error));
        continue;
      }
      runs.push(() =>
        runTestCase({
          workflow: {name: handle.name, directory: handle.directory, manifest: handle.manifest!, children},
          definition,
          name: file.name,
          file: file.file,
          testCase: file.testCase,
          invocationDirectory: host.cwd,
          ...(options.signal === undefined ? {} : {signal: options.signal}),
        }),
      );
    }
  }
  const limit = (await readSettings(host.home)).agents.maxActive;
  reports.push(...(await runPooled(runs, limit)));
  if (options.signal?.aborted === true) throw options.signal.reason;
  reports.sort((a, b) =>
    a.workflow === b.workflow ? a.case.localeCompare(b.case) : a.workflow.localeCompare(b.workflow),
  );
  const count = (status: CaseReport['status']) => reports.filter((r) => r.status === status).length;
  const summary = {
    total: reports.length,
    passed: count('passed'),
    failed: count('failed'),
    errored: count('errored'),
    durationMs: Date.now() - started,
  };
  return {ok: summary.passed === summary.total, cases: reports, summary, warnings};
}

/** Runs the tasks with at most `limit` at once, keeping their order in the result. */
async function runPooled<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({length: Math.max(1, Math.min(limit, tasks.length))}, worker));
  return results;
}

function erroredCase(handle: WorkflowHandle, file: CaseFile, error: unknown): CaseReport {
  const problem = isStratosError(error)
    ? {code: error.code, message: error.message}
    : {code: 'STRATOS_INTERNAL', message: describeError(error)};
  return {
    workflow: handle.name,
    case: file.name,
    file: file.file,
    status: 'errored',
    durationMs: 0,
    problems: [problem],
    diff: [],
    error: problem,
  };
}
