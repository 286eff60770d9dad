/**
 * `stratos runs record <run> --case <name>`: writes `<workflow>/tests/<name>.yaml` from a recorded run's
 * artifacts (src/cases/record-case.ts). It never overwrites a case.
 */
import {lstat, mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {stringify} from 'yaml';
import {assertCaseName, caseExtensions} from '../cases/case-name.ts';
import {recordTestCase} from '../cases/record-case.ts';
import {CASES_FOLDER} from '../cases/test-case.ts';
import {StratosError} from '../errors/index.ts';
import {isNotFound} from '../internal/json-file.ts';
import {describeFileKind} from '../internal/regular-file.ts';
import {readRunRecord} from '../telemetry/artifacts/run-store.ts';
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
 *   STRATOS_TEST_CASE_NAME_INVALID, STRATOS_TEST_CASE_EXISTS, STRATOS_TEST_CASE_WRITE_FAILED.
 */
export async function recordCaseFromRun(
  target: string,
  caseName: string,
  options: HostOptions = {},
): Promise<RecordTestCaseResult> {
  assertCaseName(caseName);
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
  const file = join(folder, `${caseName}${caseExtensions[0]}`);
  for (const extension of caseExtensions) {
    const existing = join(folder, `${caseName}${extension}`);
    const kind = await entryKind(existing);
    if (kind === undefined) continue;
    throw new StratosError(
      'STRATOS_TEST_CASE_EXISTS',
      kind === 'a symbolic link'
        ? `The test case path ${existing} is a symbolic link; Stratos neither follows nor replaces it. Pick another --case name, or remove the link first.`
        : `The test case ${existing} already exists${kind === 'a regular file' ? '' : ` as ${kind}`}; pick another --case name or delete the file first.`,
      {details: {file: existing}},
    );
  }
  const header = `# Recorded by 'stratos runs record ${shown.run.runId} --case ${caseName}'; see docs/testing.md.\n`;
  try {
    await mkdir(folder, {recursive: true});
    // O_CREAT | O_EXCL: an entry that appeared meanwhile (a symbolic link too, dangling or not) is never followed
    // or overwritten.
    await writeFile(file, header + stringify(testCase, {lineWidth: 0}), {flag: 'wx'});
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await entryKind(file)) !== undefined) {
      throw new StratosError(
        'STRATOS_TEST_CASE_EXISTS',
        `The test case path ${file} appeared while the case was recorded; Stratos left it as it is. Pick another --case name or remove it first.`,
        {details: {file}, cause: error},
      );
    }
    throw new StratosError(
      'STRATOS_TEST_CASE_WRITE_FAILED',
      `The test case ${file} could not be created: ${(error as Error).message}. Make ${folder} a writable folder, then record the case again.`,
      {details: {file}, cause: error},
    );
  }
  return {run: shown.run.runId, workflow: record.workflow.name, case: caseName, file, needsValue};
}

/**
 * What already stands at `path` without following a link or opening it (reading a FIFO placed there would wait
 * forever for a writer), or undefined when nothing does.
 */
async function entryKind(path: string): Promise<string | undefined> {
  try {
    return describeFileKind(await lstat(path));
  } catch (error) {
    if (isNotFound(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}
