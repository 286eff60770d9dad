/**
 * `stratos runs resume <run>`: invokes an interrupted run again as a new run linked to it (`resumedFrom`), with its
 * recorded input, invocation directory and overrides. The workflow code runs from the top; each step its journal
 * holds is answered at once, and the first step it does not hold, and everything after, runs for real
 * (docs/resume.md).
 */
import {join} from 'node:path';
import {JOURNAL_FILE, readJournalFile} from '../context/jsonl-journal-store.ts';
import {StratosError} from '../errors/index.ts';
import {fingerprintAuthoredFiles, listChangedFiles} from '../runtime/authored-files.ts';
import {executeWorkflow} from '../runtime/execute-workflow.ts';
import {readResumeRecord} from '../runtime/resume-record.ts';
import {findStoredRun} from './find-run.ts';
import {findWorkflow, type HostOptions, resolveHost} from './host.ts';
import {type ProgressOptions, progressOption, warningsOf} from './progress.ts';
import {startRunRetention} from './run-retention.ts';
import type {RunWorkflowResult} from './run-workflow.ts';

export interface ResumeRunOptions extends HostOptions, ProgressOptions {
  signal?: AbortSignal;
  /** Resume even though the workflow's authored files changed since the run. */
  allowChanged?: boolean;
}

export type ResumeRunResult = RunWorkflowResult & {
  /** The run folder name of the run this one resumed. */
  resumedFrom: string;
  /** How many steps the journal held. */
  journaledSteps: number;
};

/**
 * Resumes the recorded run `target` (its folder name, execution id or a unique prefix).
 * @throws StratosError STRATOS_RUNS_NOT_FOUND, STRATOS_RUNS_AMBIGUOUS, STRATOS_RESUME_NOT_RESUMABLE,
 *   STRATOS_RESUME_FILES_CHANGED; resolution and build failures as `stratos run` throws them. Failures of the
 *   resumed run itself (STRATOS_RESUME_DIVERGED among them) come back with `ok: false`.
 */
export async function resumeRun(target: string, options: ResumeRunOptions = {}): Promise<ResumeRunResult> {
  const host = resolveHost(options);
  const stored = await findStoredRun(host.home, target);
  const {runId, status} = stored.record;
  if (status === 'succeeded' || (status === 'running' && !stored.stale)) {
    throw new StratosError(
      'STRATOS_RESUME_NOT_RESUMABLE',
      status === 'succeeded'
        ? `Run ${runId} succeeded, so there is nothing to resume. Run the workflow again with 'stratos run ${stored.record.workflow.name}' for new work.`
        : `Run ${runId} is still running (process ${stored.record.pid}). Wait for it to end, or stop it, then resume it.`,
      {details: {run: runId, status}},
    );
  }
  const record = readResumeRecord(stored.directory);
  if (record === undefined) {
    throw new StratosError(
      'STRATOS_RESUME_NOT_RESUMABLE',
      `Run ${runId} has no recorded input (resume.json in ${stored.directory}): it was made by an older Stratos or failed before it started. Run the workflow again with 'stratos run'.`,
      {details: {run: runId}},
    );
  }
  const changed = listChangedFiles(record.files, fingerprintAuthoredFiles(record.workflow.directory));
  if (changed.length > 0 && options.allowChanged !== true) {
    const listed =
      changed.slice(0, 10).join(', ') + (changed.length > 10 ? ` and ${changed.length - 10} more` : '');
    throw new StratosError(
      'STRATOS_RESUME_FILES_CHANGED',
      `The authored files of workflow '${record.workflow.name}' changed since run ${runId} (${listed}), so its journal may no longer match the code. Restore them, or pass --allow-changed to resume anyway (a step that no longer matches stops the run with STRATOS_RESUME_DIVERGED).`,
      {details: {run: runId, files: changed}},
    );
  }
  const journal = readJournalFile(join(stored.directory, JOURNAL_FILE));
  const invocationHost = resolveHost({...options, cwd: record.invocationDirectory});
  const {workflow, result} = await executeWorkflow({
    resolve: () => findWorkflow(invocationHost, record.workflow.directory),
    input: record.input,
    invocationDirectory: record.invocationDirectory,
    build: progressOption(options),
    stratosHome: host.home,
    resume: {
      resumedFrom: runId,
      journal,
      lineage: [stored.directory, ...(record.lineage ?? [])],
      worktrees: record.worktrees ?? [],
    },
    ...(options.signal === undefined ? {} : {signal: options.signal}),
    ...(options.onNotice === undefined ? {} : {notify: options.onNotice}),
  }).catch((error: unknown) => {
    throw options.signal?.aborted === true ? options.signal.reason : error;
  });
  const retention = await startRunRetention(options);
  const warnings = [...warningsOf(workflow.build.diagnostics), ...result.telemetryWarnings, ...retention];
  return {...result, warnings, resumedFrom: runId, journaledSteps: journal.length};
}
