/** `stratos test [<workflow>]` and `stratos runs record <run> --case <name>` (docs/testing.md). */
import {recordCaseFromRun} from '../../api/record-test-case.ts';
import {testWorkflows} from '../../api/test-workflows.ts';
import type {CaseReport} from '../../cases/run-test-case.ts';
import {StratosError} from '../../errors/index.ts';
import {type CommandContext, type CommandHandler, workflowTarget} from './command.ts';

export const testCommand: CommandHandler = async (command, context) => {
  const result = await testWorkflows(workflowTarget(command), {
    cwd: context.cwd,
    env: context.env,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
  });
  const {summary} = result;
  const message = `${summary.total} ${summary.total === 1 ? 'case' : 'cases'}: ${summary.passed} passed, ${summary.failed} failed, ${summary.errored} errored (${summary.durationMs} ms)`;
  const human =
    summary.total === 0
      ? 'No test cases found: add <workflow>/tests/<case>.yaml (docs/testing.md).\n'
      : `${result.cases.map((report) => renderCase(report, context)).join('\n')}\n${message}\n`;
  if (result.ok) return {ok: true, message, data: result, warnings: result.warnings, human};
  const error = new StratosError(
    'STRATOS_TEST_CASES_FAILED',
    `${message}. Read the differences above, then fix the workflow or the case.`,
    {details: {cases: result.cases, summary}},
  );
  return {ok: false, error, warnings: result.warnings, human};
};

export const runsRecordCommand: CommandHandler = async (command, context) => {
  const run = command.positionals[0];
  const name = command.values.case;
  if (run === undefined || typeof name !== 'string') {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      "'stratos runs record' needs a run id and a case name, for example 'stratos runs record 20261201T073126123Z-1a2b --case staged-greeting'. Run 'stratos runs list' to see recent runs.",
    );
  }
  const result = await recordCaseFromRun(run, name, {cwd: context.cwd, env: context.env});
  const warnings = result.needsValue.map((message) => ({
    code: 'STRATOS_TEST_RECORD_NEEDS_VALUE' as const,
    severity: 'warning' as const,
    message: `${result.file}: ${message}`,
  }));
  return {
    ok: true,
    message: `Recorded case '${result.case}' of workflow '${result.workflow}' from run ${result.run}`,
    data: result,
    warnings,
    human: `Wrote ${result.file}${result.needsValue.length === 0 ? '' : ` (${result.needsValue.length} ${result.needsValue.length === 1 ? 'value needs' : 'values need'} writing)`}.\nRun 'stratos test ${result.workflow}' to replay it.\n`,
  };
};

function renderCase(report: CaseReport, context: CommandContext): string {
  const label = `${report.workflow}/${report.case}`;
  const head =
    report.status === 'passed'
      ? `${context.paint('PASS ', 'green')} ${label} (${report.durationMs} ms)`
      : report.status === 'failed'
        ? `${context.paint('FAIL ', 'red')} ${label} (${report.durationMs} ms)`
        : `${context.paint('ERROR', 'red')} ${label}`;
  const lines = [head];
  for (const problem of report.problems) lines.push(`      ${problem.code}: ${problem.message}`);
  for (const line of report.diff) lines.push(`        ${line}`);
  return lines.join('\n');
}
