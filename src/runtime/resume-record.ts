/**
 * `resume.json` in a top-level run's folder: what `stratos runs resume` needs to invoke the run again exactly as
 * it was invoked (the raw input with its overrides, the invocation directory, the workflow folder) and the
 * fingerprint of its authored files. Written (synchronously, like run.json) before the run function starts; readable by the owner only, since
 * the input is kept unredacted.
 */
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {RecordedWorktree} from '../worktrees/reopen-worktree.ts';

export const RESUME_FILE = 'resume.json';

export interface ResumeRecord {
  schemaVersion: 1;
  workflow: {name: string; directory: string};
  invocationDirectory: string;
  /** The input as given, `overrides` included. */
  input: unknown;
  /** Relative path → SHA-256 of the workflow folder's authored files. */
  files: Record<string, string>;
  /** The run folder name of the run this one resumed. */
  resumedFrom?: string;
  /** The folders of the runs this one continues, nearest first: a success releases their worktree holds. */
  lineage?: string[];
  /** The managed worktree checkouts of this run's agents and of the runs it continues (resume-worktrees.ts). */
  worktrees?: RecordedWorktree[];
}

export function writeResumeRecord(runDirectory: string, record: ResumeRecord): void {
  writeFileSync(join(runDirectory, RESUME_FILE), `${JSON.stringify(record)}\n`, {mode: 0o600});
}

/** The record, or undefined when the run has none (an older run, or one whose folder could not be written). */
export function readResumeRecord(runDirectory: string): ResumeRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(runDirectory, RESUME_FILE), 'utf8')) as ResumeRecord;
  } catch {
    return undefined;
  }
}
