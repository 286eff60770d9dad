/**
 * Crash reconciliation (design philosophy, "Cleanup follows ownership"): a registration whose process is gone
 * from this host is released, and its checkout is then cleaned by the same rules as any release. Runs before a
 * worktree is acquired in the repository; records whose users are all alive, or that have no users, are left
 * as they are. A dead registration of a run that can be resumed becomes a hold (`worktree-holds.ts`): kept.
 */
import {type CleanupDecision, cleanUpWorktree} from './clean-up-worktree.ts';
import {isHoldLive} from './worktree-holds.ts';
import {isUserAlive, listRecordNames, readRecord, recordsDirectory} from './worktree-records.ts';

export async function reconcileWorktrees(options: {
  stratosHome: string;
  repository: string;
  lockTimeoutMs?: number | undefined;
}): Promise<CleanupDecision[]> {
  const directory = recordsDirectory(options.stratosHome, options.repository);
  const decisions: CleanupDecision[] = [];
  for (const name of await listRecordNames(directory)) {
    const record = await readRecord(directory, name).catch(() => undefined);
    if (record === undefined) continue;
    // A checkout held for resume is looked at again once the held run can no longer be resumed.
    if (record.users.every(isUserAlive) && (record.holds ?? []).every(isHoldLive)) continue;
    decisions.push(
      await cleanUpWorktree({
        stratosHome: options.stratosHome,
        repository: options.repository,
        name,
        ...(options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: options.lockTimeoutMs}),
      }),
    );
  }
  return decisions;
}
