/**
 * One case as a real invocation (input and output validation, hooks, children, telemetry, cleanup), with the
 * case's scripts in the execution context, then judged: passed, failed (with the differences and the calls that
 * went wrong) or errored (the run failed with an error the case does not expect).
 */

import type {InvokedWorkflow} from '../context/index.ts';
import type {WorkflowDefinition} from '../contract/index.ts';
import {invokeWorkflow} from '../runtime/invoke-workflow.ts';
import {CaseScript} from './case-script.ts';
import {createCaseSource} from './case-source.ts';
import {diffValues} from './compare-values.ts';
import type {TestCase} from './test-case.ts';

export type CaseStatus = 'passed' | 'failed' | 'errored';

export interface CaseReport {
  workflow: string;
  case: string;
  file: string;
  status: CaseStatus;
  durationMs: number;
  /** Why it failed or errored, one entry per problem (a code and a whole sentence). */
  problems: {code: string; message: string}[];
  /** Expected against actual, one line per difference (failed output checks only). */
  diff: string[];
  /** The run's output, or its error's code and message. */
  output?: Record<string, unknown>;
  error?: {code: string; message: string};
}

export interface RunTestCaseOptions {
  workflow: InvokedWorkflow;
  definition: WorkflowDefinition;
  name: string;
  file: string;
  testCase: TestCase;
  invocationDirectory: string;
  signal?: AbortSignal;
}

export async function runTestCase(options: RunTestCaseOptions): Promise<CaseReport> {
  const {testCase} = options;
  const script = new CaseScript(testCase);
  const started = Date.now();
  const result = await invokeWorkflow({
    workflow: options.workflow,
    definition: options.definition,
    input: testCase.input,
    invocationDirectory: options.invocationDirectory,
    recorded: createCaseSource(script),
    ...(options.signal === undefined ? {} : {signal: options.signal}),
  });
  const report: CaseReport = {
    workflow: options.workflow.name,
    case: options.name,
    file: options.file,
    status: 'passed',
    durationMs: Date.now() - started,
    problems: [],
    diff: [],
    ...(result.ok
      ? {output: result.output}
      : {error: {code: result.error.code, message: result.error.message}}),
  };
  const unscripted = script.unscripted();
  report.problems.push(...unscripted);
  // An unscripted call (or a scripted child output its contract refuses) ends the run early, so its later scripts
  // are not "unused"; they are reported otherwise.
  if (unscripted.length === 0) report.problems.push(...script.unused());
  if (result.ok) {
    if (testCase.error !== undefined) {
      report.problems.push({
        code: 'STRATOS_TEST_OUTPUT_MISMATCH',
        message: `The case expects error ${testCase.error}, but the run succeeded.`,
      });
    } else {
      const expected = testCase.output ?? testCase.match;
      report.diff = diffValues(expected, result.output, 'output', testCase.output === undefined);
      if (report.diff.length > 0) {
        report.problems.push({
          code: 'STRATOS_TEST_OUTPUT_MISMATCH',
          message: `The output differs from the case's ${testCase.output === undefined ? 'match' : 'output'} in ${report.diff.length} ${report.diff.length === 1 ? 'place' : 'places'}.`,
        });
      }
    }
  } else if (unscripted.length === 0) {
    // (With an unscripted call or a refused scripted value, the run's failure is its consequence: already reported.)
    if (testCase.error === undefined) {
      report.status = 'errored';
      report.problems.push({code: result.error.code, message: result.error.message});
      return report;
    }
    if (testCase.error !== result.error.code) {
      report.diff = [`error: expected ${testCase.error}, got ${result.error.code}`];
      report.problems.push({
        code: 'STRATOS_TEST_OUTPUT_MISMATCH',
        message: `The case expects error ${testCase.error}, but the run failed with ${result.error.code}: ${result.error.message}`,
      });
    }
  }
  if (report.problems.length > 0) report.status = 'failed';
  return report;
}
