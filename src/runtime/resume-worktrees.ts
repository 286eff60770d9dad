/**
 * Keeps a run's managed worktree checkouts in its resume.json, so that `stratos runs resume` reopens exactly them
 * for the same agents (docs/resume.md, "Worktrees"). Loaded only when a run acquires a worktree.
 */
import {join} from 'node:path';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import type {RecordedWorktree} from '../worktrees/reopen-worktree.ts';
import {RESUME_FILE, readResumeRecord} from './resume-record.ts';

/** Rewrites the run's resume.json with its checkouts (atomically, flushed); nothing when the run has none. */
export async function rememberWorktrees(runDirectory: string, worktrees: RecordedWorktree[]): Promise<void> {
  const record = readResumeRecord(runDirectory);
  if (record === undefined) return;
  await writeFileAtomic(join(runDirectory, RESUME_FILE), `${JSON.stringify({...record, worktrees})}\n`, {
    mode: 0o600,
  });
}
