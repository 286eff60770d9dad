/**
 * Holds for resume (docs/resume.md, "Worktrees"): a checkout used by a run that ended without succeeding (failed,
 * cancelled) or whose process died is kept for `stratos runs resume` instead of being cleaned. A hold names the
 * interrupted run's folder and lasts while that run can be resumed (its `resume.json` exists) and until a
 * successful resume of it, or of a run resumed from it, releases it. Held checkouts are then cleaned by the usual
 * rules.
 */
import {existsSync} from 'node:fs';
import {basename, join} from 'node:path';
import type {CleanupDecision} from './clean-up-worktree.ts';
import {isUserAlive, type WorktreeHold, type WorktreeRecord} from './worktree-records.ts';

/** How a release changes the registrations and holds of a checkout. */
export interface HoldChanges {
  /** The run whose registration ends now. */
  runId?: string | undefined;
  /** This run ended resumable: its registration becomes a hold on its run folder. */
  hold?: string | undefined;
  /** Run folders whose holds end now (a successful resume and the runs it continued). */
  releaseHolds?: readonly string[] | undefined;
}

/**
 * Ends this run's registration and those of dead processes: a dead one of a resumable run, and this run's when it
 * ended resumable, becomes a hold. Holds released by the caller, or whose run can no longer be resumed, end.
 */
export function settleRegistrations(record: WorktreeRecord, changes: HoldChanges): void {
  const holds = new Map((record.holds ?? []).map((hold) => [hold.runDirectory, hold]));
  const addHold = (runDirectory: string) => {
    if (!holds.has(runDirectory)) holds.set(runDirectory, {runDirectory, since: new Date().toISOString()});
  };
  record.users = record.users.filter((user) => {
    const mine = changes.runId !== undefined && user.runId === changes.runId;
    if (!mine && isUserAlive(user)) return true;
    if (!mine && user.runDirectory !== undefined) addHold(user.runDirectory);
    return false;
  });
  if (changes.hold !== undefined) addHold(changes.hold);
  const released = new Set(changes.releaseHolds ?? []);
  const kept = [...holds.values()].filter((hold) => !released.has(hold.runDirectory) && isHoldLive(hold));
  if (kept.length > 0) record.holds = kept;
  else delete record.holds;
}

/** Whether the held run can still be resumed: its folder still has its resume.json. */
export function isHoldLive(hold: WorktreeHold): boolean {
  return existsSync(join(hold.runDirectory, 'resume.json'));
}

/** The decision for a checkout that interrupted runs hold: kept, no warning (the run's own failure says enough). */
export function describeHeld(
  subject: Pick<CleanupDecision, 'name' | 'path' | 'branch'>,
  holds: readonly WorktreeHold[],
): CleanupDecision {
  const runs = holds.map((hold) => basename(hold.runDirectory));
  return {
    ...subject,
    action: 'kept',
    reason: 'resumable',
    message: `Worktree '${subject.name}' at ${subject.path} is kept for resuming run ${runs.join(', ')} ('stratos runs resume ${runs[0]}'); a successful resume cleans it up.`,
  };
}
