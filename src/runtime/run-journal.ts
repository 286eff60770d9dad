/**
 * The journal of a top-level run: `resume.json` (how to invoke it again) and the step seam that appends each
 * completed step to `journal.jsonl` in the run folder, answering from the resumed run's journal first.
 */
import {createJournalSeam} from '../context/journal-seam.ts';
import {openJsonlJournalStore} from '../context/jsonl-journal-store.ts';
import type {RecordedSteps} from '../context/recorded-steps.ts';
import type {JournalEntry, JournalStore} from '../context/step-journal.ts';
import type {StepSeam} from '../context/step-seam.ts';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {RecordedWorktree} from '../worktrees/reopen-worktree.ts';
import type {RunWorktreesOptions} from '../worktrees/run-worktrees.ts';
import {fingerprintAuthoredFiles} from './authored-files.ts';
import {writeResumeRecord} from './resume-record.ts';

/** A run that continues an interrupted one: its journal and run folder name. */
export interface ResumeSource {
  resumedFrom: string;
  journal: readonly JournalEntry[];
  /** The folders of the resumed run and of the runs it continues, nearest first. */
  lineage?: string[];
  /** The worktree checkouts the resumed run recorded, reopened for the same agents. */
  worktrees?: RecordedWorktree[];
}

export interface OpenRunJournalOptions {
  workflow: {name: string; directory: string};
  input: unknown;
  invocationDirectory: string;
  /** The run folder; without one (no artifacts), steps are keyed and replayed but not kept. */
  runDirectory: string | undefined;
  resume?: ResumeSource | undefined;
  /** The source of recorded steps in place of the resumed journal (a `stratos test` case). */
  source?: RecordedSteps | undefined;
  /** Reports a resume.json that could not be written (the run goes on; it cannot be resumed). */
  report: (message: string) => void;
}

/** Writes `resume.json` and returns the run's step seam. */
export function openRunJournal(options: OpenRunJournalOptions): StepSeam {
  const {runDirectory} = options;
  if (runDirectory !== undefined) {
    try {
      writeResumeRecord(runDirectory, {
        schemaVersion: 1,
        workflow: options.workflow,
        invocationDirectory: options.invocationDirectory,
        input: options.input,
        files: fingerprintAuthoredFiles(options.workflow.directory),
        ...(options.resume === undefined
          ? {}
          : {
              resumedFrom: options.resume.resumedFrom,
              lineage: options.resume.lineage ?? [],
              worktrees: options.resume.worktrees ?? [],
            }),
      });
    } catch (error) {
      options.report(
        `Writing resume.json of the run failed, so it cannot be resumed: ${describeError(error)}`,
      );
    }
  }
  return createJournalSeam(options.workflow.name, {
    store: runDirectory === undefined ? undefined : openStore(runDirectory, options.resume),
    replay: options.resume?.journal,
    source: options.source,
  });
}

/**
 * What the run's worktree gate needs for resume: the run folder its checkouts are held for when it does not
 * succeed, the resumed run's checkouts and lineage, and the writer that keeps its checkouts in its resume.json.
 */
export function describeWorktreeResume(
  runDirectory: string | undefined,
  resume: ResumeSource | undefined,
): Pick<RunWorktreesOptions, 'runDirectory' | 'resume' | 'remember'> {
  return {
    runDirectory,
    ...(resume === undefined
      ? {}
      : {
          resume: {
            resumedFrom: resume.resumedFrom,
            worktrees: resume.worktrees ?? [],
            lineage: resume.lineage ?? [],
          },
        }),
    ...(runDirectory === undefined
      ? {}
      : {
          remember: async (worktrees) =>
            (await import('./resume-worktrees.ts')).rememberWorktrees(runDirectory, worktrees),
        }),
  };
}

/** The run's journal store; a resumed run's starts with the original's entries, so it can itself be resumed. */
function openStore(runDirectory: string, resume: ResumeSource | undefined): JournalStore {
  try {
    return openJsonlJournalStore(runDirectory, resume?.journal);
  } catch (error) {
    throw new StratosError(
      'STRATOS_RESUME_JOURNAL_FAILED',
      `The journal of run ${resume?.resumedFrom ?? ''} could not be carried into the new run folder ${runDirectory}: ${describeError(error)}. Free disk space or fix the folder's permissions, then resume again.`,
      {cause: error},
    );
  }
}
