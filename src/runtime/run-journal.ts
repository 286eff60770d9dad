/**
 * The journal of a top-level run: `resume.json` (how to invoke it again) and the step seam that appends each
 * completed step to `journal.jsonl` in the run folder, answering from the resumed run's journal first.
 */
import {createJournalSeam} from '../context/journal-seam.ts';
import {openJsonlJournalStore} from '../context/jsonl-journal-store.ts';
import type {JournalEntry} from '../context/step-journal.ts';
import type {StepSeam} from '../context/step-seam.ts';
import {fingerprintAuthoredFiles} from './authored-files.ts';
import {writeResumeRecord} from './resume-record.ts';

/** A run that continues an interrupted one: its journal and run folder name. */
export interface ResumeSource {
  resumedFrom: string;
  journal: readonly JournalEntry[];
}

export interface OpenRunJournalOptions {
  workflow: {name: string; directory: string};
  input: unknown;
  invocationDirectory: string;
  /** The run folder; without one (no artifacts), steps are keyed and replayed but not kept. */
  runDirectory: string | undefined;
  resume?: ResumeSource | undefined;
}

/** Writes `resume.json` and returns the run's step seam. */
export async function openRunJournal(options: OpenRunJournalOptions): Promise<StepSeam> {
  const {runDirectory} = options;
  if (runDirectory !== undefined) {
    await writeResumeRecord(runDirectory, {
      schemaVersion: 1,
      workflow: options.workflow,
      invocationDirectory: options.invocationDirectory,
      input: options.input,
      files: fingerprintAuthoredFiles(options.workflow.directory),
      ...(options.resume === undefined ? {} : {resumedFrom: options.resume.resumedFrom}),
    });
  }
  return createJournalSeam(options.workflow.name, {
    store: runDirectory === undefined ? undefined : openJsonlJournalStore(runDirectory),
    replay: options.resume?.journal,
  });
}
