/**
 * Resume: an agent of a resumed run gets exactly the checkout its interrupted run used (recorded in that run's
 * resume.json), as it is, uncommitted work included. A checkout that is gone, moved, or no longer a worktree of
 * its repository is STRATOS_RESUME_WORKTREE_MISSING: never a silent new checkout, which would lose the earlier work.
 */
import {lstat} from 'node:fs/promises';
import {StratosError} from '../errors/index.ts';
import {type AcquireWorktreeOptions, counterpart, register, type WorktreeLease} from './acquire-worktree.ts';
import {findWorktree} from './list-worktrees.ts';
import {reconcileWorktrees} from './reconcile-worktrees.ts';
import {withRepositoryLock} from './repository-lock.ts';
import {withWorktreeLock} from './worktree-lock.ts';
import {lockFile, recordsDirectory} from './worktree-records.ts';

/** A checkout as a run's resume.json records it, keyed by the first step of the agent that acquired it. */
export interface RecordedWorktree {
  /** The step key of the agent's first execute: the same agent of a resumed run has the same one. */
  key: string;
  agent: string;
  repository: string;
  name: string;
  /** False for an unnamed worktree (its name was drawn). */
  named: boolean;
  path: string;
  branch: string;
}

/**
 * Registers this run on the recorded checkout after crash reconciliation (which holds, never cleans, the
 * checkout of the interrupted run).
 * @throws StratosError STRATOS_RESUME_WORKTREE_MISSING, STRATOS_WORKTREE_LOCK_TIMEOUT
 */
export async function reopenWorktree(
  recorded: RecordedWorktree,
  resumedFrom: string,
  options: AcquireWorktreeOptions,
): Promise<WorktreeLease> {
  const {repository, name, path, branch} = recorded;
  const timeout = options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: options.lockTimeoutMs};
  const reconciled = await reconcileWorktrees({stratosHome: options.stratosHome, repository, ...timeout});
  const records = recordsDirectory(options.stratosHome, repository);
  const lease = await withWorktreeLock(
    lockFile(records, name),
    {label: `worktree '${name}' of ${repository}`, timeoutMs: options.lockTimeoutMs},
    async () => {
      const exists = await lstat(path).then(
        () => true,
        () => false,
      );
      const entry = exists
        ? await withRepositoryLock(
            options.stratosHome,
            repository,
            () => findWorktree(repository, path),
            options.lockTimeoutMs,
          ).catch(() => undefined)
        : undefined;
      if (entry === undefined || entry.prunable) throw missing(recorded, resumedFrom, options.agent, exists);
      return register(
        {name, repository, path, branch, origin: 'resumed' as const, diagnostics: []},
        options,
        records,
      );
    },
  );
  return {...lease, directory: await counterpart(options.directory, path), reconciled};
}

function missing(
  recorded: RecordedWorktree,
  resumedFrom: string,
  agent: string,
  exists: boolean,
): StratosError {
  const state = exists
    ? `${recorded.path} is no longer a worktree of ${recorded.repository}`
    : `${recorded.path} is gone (removed or moved)`;
  return new StratosError(
    'STRATOS_RESUME_WORKTREE_MISSING',
    `Agent '${agent}' cannot continue in worktree '${recorded.name}' of run ${resumedFrom}: ${state}. Stratos does not start it in a new checkout, which would lose the earlier work. Put the checkout back at ${recorded.path} (its branch ${recorded.branch} holds what was committed: 'git worktree add ${recorded.path} ${recorded.branch}'), or run the workflow anew with 'stratos run'.`,
    {details: {agent, worktree: recorded.name, path: recorded.path, run: resumedFrom}},
  );
}
