/**
 * The cleanup rules of one managed checkout, applied under its lock when a run releases it and when a crashed
 * run's registration is reconciled: skip it while another live run uses it; keep it when a `cleanup: false`
 * request protected it; keep it, with a diagnostic naming it and what would be lost, when it has changes,
 * unanchored commits or a stash, or when any step fails; otherwise `git worktree remove` (never `--force`) and
 * keep its branch. Nothing here merges, resets, stashes or discards.
 */
import {lstat} from 'node:fs/promises';
import type {Diagnostic, ErrorCode} from '../errors/index.ts';
import {isStratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {type CheckoutFinding, inspectCheckout} from './inspect-checkout.ts';
import {findWorktree} from './list-worktrees.ts';
import {withRepositoryLock} from './repository-lock.ts';
import {gitComplaint, runGit} from './run-git.ts';
import {describeHeld, type HoldChanges, settleRegistrations} from './worktree-holds.ts';
import {withWorktreeLock} from './worktree-lock.ts';
import {
  lockFile,
  readRecord,
  recordsDirectory,
  removeRecord,
  type WorktreeRecord,
  writeRecord,
} from './worktree-records.ts';

export type CleanupReason =
  | 'clean'
  | 'missing'
  | 'in-use'
  | 'protected'
  | 'changes'
  | 'commits'
  | 'stash'
  | 'unverified'
  | 'resumable';

/** What cleanup decided for one checkout. `diagnostic` is set when work was kept for a reason to act on. */
export interface CleanupDecision {
  name: string;
  path: string;
  branch: string;
  action: 'removed' | 'kept' | 'skipped';
  reason: CleanupReason;
  /** One sentence for events and run.log. */
  message: string;
  diagnostic?: Diagnostic;
}

export interface CleanUpWorktreeOptions extends HoldChanges {
  stratosHome: string;
  repository: string;
  name: string;
  /** The run whose registration ends now; without it only dead processes' registrations are released. */
  runId?: string;
  lockTimeoutMs?: number | undefined;
}

/** Applies the cleanup rules to `name`; never throws (a failure keeps the checkout and says why). */
export async function cleanUpWorktree(options: CleanUpWorktreeOptions): Promise<CleanupDecision> {
  const directory = recordsDirectory(options.stratosHome, options.repository);
  const fallback = {name: options.name, path: '', branch: `stratos/${options.name}`};
  try {
    return await withWorktreeLock(
      lockFile(directory, options.name),
      {label: `worktree '${options.name}' of ${options.repository}`, timeoutMs: options.lockTimeoutMs},
      async () => {
        const record = await readRecord(directory, options.name);
        if (record === undefined) {
          return unverified(fallback, 'it has no bookkeeping record, so Stratos cannot tell who uses it');
        }
        Object.assign(fallback, {path: record.path, branch: record.branch});
        settleRegistrations(record, options);
        const git = <T>(fn: () => Promise<T>) =>
          withRepositoryLock(options.stratosHome, options.repository, fn, options.lockTimeoutMs);
        const decision = await decide(options.repository, record, git);
        if (decision.action === 'removed' || decision.reason === 'missing')
          await removeRecord(directory, record.name);
        else await writeRecord(directory, record);
        return decision;
      },
    );
  } catch (error) {
    const why =
      isStratosError(error) && error.code === 'STRATOS_WORKTREE_LOCK_TIMEOUT'
        ? error.message
        : `its bookkeeping failed: ${describeError(error)}`;
    return unverified(fallback, why);
  }
}

type Serialize = <T>(fn: () => Promise<T>) => Promise<T>;

async function decide(repository: string, record: WorktreeRecord, git: Serialize): Promise<CleanupDecision> {
  const subject = {name: record.name, path: record.path, branch: record.branch};
  if (record.users.length > 0) {
    const runs = record.users.map((user) => `${user.runId} (pid ${user.pid})`).join(', ');
    return {
      ...subject,
      action: 'skipped',
      reason: 'in-use',
      message: `Worktree '${record.name}' is still used by ${runs}; it stays.`,
    };
  }
  const exists = await lstat(record.path).then(
    () => true,
    () => false,
  );
  const entry = await git(() => findWorktree(repository, record.path)).catch((error: Error) => error);
  if (entry instanceof Error) return unverified(subject, entry.message);
  if (!exists) {
    if (entry !== undefined) return unverified(subject, 'its directory is gone but git still lists it');
    return {
      ...subject,
      action: 'skipped',
      reason: 'missing',
      message: `Worktree '${record.name}' was already removed; its branch ${record.branch} stays.`,
    };
  }
  // A protection belongs to its checkout: it holds as long as the checkout exists (the author removing it ends it).
  if (record.protected) {
    return {
      ...subject,
      action: 'kept',
      reason: 'protected',
      message: `Worktree '${record.name}' at ${record.path} is kept: a cleanup: false request protects it.`,
    };
  }
  if (record.holds !== undefined) return describeHeld(subject, record.holds);
  if (entry === undefined)
    return unverified(subject, 'the directory is no longer a worktree of the repository');
  if (entry.locked !== undefined)
    return unverified(
      subject,
      `it is locked with 'git worktree lock'${entry.locked === '' ? '' : ` (${entry.locked})`}`,
    );
  const findings = await inspectCheckout(record.path, record.branch);
  if (findings.length > 0) return keep(subject, findings);
  const removed = await git(() => runGit(['worktree', 'remove', record.path], repository)).catch(
    (error: Error) => ({ok: false as const, code: undefined, stdout: '', stderr: error.message}),
  );
  if (!removed.ok) return unverified(subject, `git worktree remove failed: ${gitComplaint(removed)}`);
  return {
    ...subject,
    action: 'removed',
    reason: 'clean',
    message: `Worktree '${record.name}' was clean and is removed; its branch ${record.branch} keeps every commit.`,
  };
}

type Subject = Pick<CleanupDecision, 'name' | 'path' | 'branch'>;

function keep(subject: Subject, findings: CheckoutFinding[]): CleanupDecision {
  const unchecked = findings.find((finding) => finding.kind === 'unverified');
  if (unchecked !== undefined) {
    const rest = findings.filter((finding) => finding !== unchecked).map(describeFinding);
    return unverified(
      subject,
      `${unchecked.reason}${rest.length > 0 ? `; it also has ${rest.join('; and ')}` : ''}`,
    );
  }
  const first = findings[0]!;
  const parts = findings.map(describeFinding);
  const code: ErrorCode =
    first.kind === 'changes'
      ? 'STRATOS_WORKTREE_KEPT_CHANGES'
      : first.kind === 'commits'
        ? 'STRATOS_WORKTREE_KEPT_COMMITS'
        : first.kind === 'stash'
          ? 'STRATOS_WORKTREE_KEPT_STASH'
          : 'STRATOS_WORKTREE_KEPT_UNVERIFIED';
  const message = `Worktree '${subject.name}' at ${subject.path} was kept because it has ${parts.join('; and ')}. Commit or remove that work, then run 'git worktree remove ${subject.path}' (the branch ${subject.branch} stays).`;
  return {
    ...subject,
    action: 'kept',
    reason: first.kind,
    message,
    diagnostic: {code, severity: 'warning', message},
  };
}

function unverified(subject: Subject, why: string): CleanupDecision {
  const message = `Worktree '${subject.name}'${subject.path === '' ? '' : ` at ${subject.path}`} was kept because safe cleanup could not be established: ${why}. Check it and remove it yourself when it holds nothing you need.`;
  return {
    ...subject,
    action: 'kept',
    reason: 'unverified',
    message,
    diagnostic: {code: 'STRATOS_WORKTREE_KEPT_UNVERIFIED', severity: 'warning', message},
  };
}

function describeFinding(finding: CheckoutFinding): string {
  switch (finding.kind) {
    case 'changes': {
      const groups = [
        ['staged', finding.staged],
        ['unstaged', finding.unstaged],
        ['untracked', finding.untracked],
        ['unmerged', finding.unmerged],
      ] as const;
      return groups
        .filter(([, files]) => files.length > 0)
        .map(([label, files]) => `${label} changes (${listFiles(files)})`)
        .join(', ');
    }
    case 'commits':
      return `commits that no branch, tag or remote contains (${finding.commits.join(', ')}) on a detached HEAD`;
    case 'stash':
      return `a stash made in it (${finding.entries.join(', ')})`;
    case 'unverified':
      return `a state Stratos could not check (${finding.reason})`;
  }
}

function listFiles(files: readonly string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}
