/**
 * `stratos runs record <run> --case <name>`: writes `<workflow>/tests/<name>.yaml` from a recorded run's
 * artifacts (src/testing/record-case.ts). It never overwrites a case.
 */
import {lstat, mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {stringify} from 'yaml';
import {StratosError} from '../errors/index.ts';
import {isNotFound} from '../internal/json-file.ts';
import {describeFileKind} from '../internal/regular-file.ts';
import {readRunRecord} from '../telemetry/artifacts/run-store.ts';
import {recordTestCase} from '../testing/record-case.ts';
import {CASES_FOLDER} from '../testing/test-case.ts';
import type {HostOptions} from './host.ts';
import {showRun} from './runs.ts';

export interface RecordTestCaseResult {
  run: string;
  workflow: string;
  case: string;
  file: string;
  /** Values the author must write before the case replays as the run did (redacted, truncated, unrecorded). */
  needsValue: string[];
}

/**
 * @throws StratosError STRATOS_RUNS_NOT_FOUND / STRATOS_RUNS_AMBIGUOUS / STRATOS_RUNS_UNREADABLE,
 *   STRATOS_CLI_USAGE for a bad case name, STRATOS_TEST_CASE_EXISTS.
 */
export async function recordCaseFromRun(
  target: string,
  caseName: string,
  options: HostOptions = {},
): Promise<RecordTestCaseResult> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(caseName)) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `The case name '${caseName}' is not a plain file name: use letters, digits, '.', '_' and '-', for example --case staged-greeting.`,
    );
  }
  const shown = await showRun(target, options);
  const record = await readRunRecord(shown.run.directory);
  if (record === undefined) {
    throw new StratosError(
      'STRATOS_RUNS_UNREADABLE',
      `The run.json of run ${shown.run.runId} cannot be read.`,
      {
        details: {directory: shown.run.directory},
      },
    );
  }
  const {testCase, needsValue} = recordTestCase(record, shown.tree);
  const folder = join(record.workflow.directory, CASES_FOLDER);
  const file = join(folder, `${caseName}.yaml`);
  const existing = await entryKind(file);
  if (existing !== undefined) {
    const what = existing === 'a regular file' ? '' : ` as ${existing}`;
    throw new StratosError(
      'STRATOS_TEST_CASE_EXISTS',
      `The test case ${file} already exists${what}; pick another --case name or delete the file first.`,
      {details: {file}},
    );
  }
  await mkdir(folder, {recursive: true});
  const header = `# Recorded by 'stratos runs record ${shown.run.runId} --case ${caseName}'; see docs/testing.md.\n`;
  await writeFile(file, header + stringify(testCase, {lineWidth: 0}), {flag: 'wx'});
  return {run: shown.run.runId, workflow: record.workflow.name, case: caseName, file, needsValue};
}

/**
 * What already stands at `file`, or undefined when nothing does. Looked up without opening it: reading a FIFO
 * placed there would wait forever for a writer.
 */
async function entryKind(file: string): Promise<string | undefined> {
  try {
    return describeFileKind(await lstat(file));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
