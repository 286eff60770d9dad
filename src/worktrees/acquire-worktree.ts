/**
 * Creating or reusing an agent's checkout under `<repo>/.stratos/worktrees/<name>` on branch `stratos/<name>`:
 * a named one reuses its existing checkout unchanged, or is recreated from its retained branch; everything new
 * starts from the locally cached `refs/remotes/origin/HEAD` (no fetch, no copy of uncommitted work), or from
 * local HEAD with a warning. A directory in the way that is not a worktree of the repository is left untouched.
 * The bookkeeping record gains this run's registration under the worktree's lock.
 */
import {lstat, mkdir, realpath, writeFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import type {Diagnostic} from '../errors/index.ts';
import {StratosError} from '../errors/index.ts';
import type {CleanupDecision} from './clean-up-worktree.ts';
import {findRepository, type Repository} from './find-repository.ts';
import {createFailure, findWorktree} from './list-worktrees.ts';
import {reconcileWorktrees} from './reconcile-worktrees.ts';
import {withRepositoryLock} from './repository-lock.ts';
import {gitComplaint, runGit} from './run-git.ts';
import {withWorktreeLock} from './worktree-lock.ts';
import {branchOf, generateWorktreeName, validateWorktreeName} from './worktree-names.ts';
import {
  currentUser,
  lockFile,
  readRecord,
  recordsDirectory,
  type WorktreeRecord,
  writeRecord,
} from './worktree-records.ts';

export interface AcquireWorktreeOptions {
  stratosHome: string;
  /** The agent's resolved working directory: its repository gets the worktree. */
  directory: string;
  agent: string;
  /** Absent for an unnamed worktree. */
  name?: string | undefined;
  /** `false` protects the checkout from cleanup, now and in every later run. */
  cleanup: boolean;
  /** The top-level run's execution id. */
  runId: string;
  /** The run's folder when it can be resumed: if its process dies, the checkout is held for resume. */
  runDirectory?: string | undefined;
  lockTimeoutMs?: number | undefined;
}

export interface WorktreeLease {
  name: string;
  repository: string;
  /** The checkout's root. */
  path: string;
  /** Where the harness works: the checkout's counterpart of the agent's directory, else its root. */
  directory: string;
  branch: string;
  /** `resumed`: the checkout of the interrupted run that this run resumes (`reopen-worktree.ts`). */
  origin: 'created' | 'reused' | 'recreated' | 'resumed';
  /** For a new branch: the ref it started from (`refs/remotes/origin/HEAD` or `HEAD`) and its commit. */
  base?: {ref: string; commit: string};
  diagnostics: Diagnostic[];
  /** Crashed runs' registrations released in this repository before acquiring, with what cleanup decided. */
  reconciled: CleanupDecision[];
}

/** A lease before its directory is mapped and reconciliation is attached. */
export type Lease = Omit<WorktreeLease, 'directory' | 'reconciled'>;

/**
 * @throws StratosError STRATOS_WORKTREE_NOT_A_REPOSITORY, STRATOS_WORKTREE_NAME_INVALID,
 *   STRATOS_WORKTREE_PATH_CONFLICT, STRATOS_WORKTREE_CREATE_FAILED, STRATOS_WORKTREE_LOCK_TIMEOUT
 */
export async function acquireWorktree(options: AcquireWorktreeOptions): Promise<WorktreeLease> {
  if (options.name !== undefined) validateWorktreeName(options.name, options.agent);
  const repository = await findRepository(options.directory, options.agent);
  const records = recordsDirectory(options.stratosHome, repository.root);
  const reconciled = await reconcileWorktrees({
    stratosHome: options.stratosHome,
    repository: repository.root,
    ...(options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: options.lockTimeoutMs}),
  });
  const underLock = <T>(name: string, fn: () => Promise<T>) =>
    withWorktreeLock(
      lockFile(records, name),
      {label: `worktree '${name}' of ${repository.root}`, timeoutMs: options.lockTimeoutMs},
      fn,
    );
  let lease: Lease | undefined;
  if (options.name !== undefined) {
    const name = options.name;
    lease = await underLock(name, () => openNamed(repository, name, options, records));
  } else {
    const taken = (name: string) => isTaken(repository, name, records);
    while (lease === undefined) {
      const name = await generateWorktreeName(taken);
      // Another run may have drawn the same name meanwhile: decided again under the lock.
      lease = await underLock(name, async () =>
        (await taken(name))
          ? undefined
          : register(await createNew(repository, name, options), options, records),
      );
    }
  }
  return {...lease, directory: await counterpart(options.directory, lease.path), reconciled};
}

async function openNamed(
  repository: Repository,
  name: string,
  options: AcquireWorktreeOptions,
  records: string,
): Promise<Lease> {
  const path = join(repository.worktreesDir, name);
  const branch = branchOf(name);
  const entry = await git(options, repository, () => findWorktree(repository.root, path)).catch(
    (error: Error) => {
      throw createFailure(`Worktree '${name}' could not be opened: ${error.message}.`, {name, path});
    },
  );
  const exists = await pathExists(path);
  if (exists && entry !== undefined && !entry.prunable) {
    return register(
      {name, repository: repository.root, path, branch, origin: 'reused', diagnostics: []},
      options,
      records,
    );
  }
  if (exists) {
    throw new StratosError(
      'STRATOS_WORKTREE_PATH_CONFLICT',
      `Agent '${options.agent}' wants worktree '${name}', but ${path} already exists and is not a worktree of ${repository.root}. Stratos left it untouched: move it away, or choose another worktree name.`,
      {details: {agent: options.agent, name, path}},
    );
  }
  if (entry !== undefined) {
    throw createFailure(
      `Worktree '${name}' is gone from ${path}, but git still lists it. Stratos does not prune git's records of a checkout it did not see removed: check 'git worktree list', run 'git worktree prune' when nothing there is needed, then run again.`,
      {name, path},
    );
  }
  if (await branchExists(repository.root, branch)) {
    await ensureIgnored(repository);
    const added = await git(options, repository, () =>
      runGit(['worktree', 'add', path, branch], repository.root),
    );
    if (!added.ok) {
      throw createFailure(
        `Worktree '${name}' could not be recreated from its branch ${branch}: ${gitComplaint(added)}.`,
        {name, path, branch},
      );
    }
    return register(
      {name, repository: repository.root, path, branch, origin: 'recreated', diagnostics: []},
      options,
      records,
    );
  }
  return register(await createNew(repository, name, options), options, records);
}

async function createNew(
  repository: Repository,
  name: string,
  options: AcquireWorktreeOptions,
): Promise<Lease> {
  const path = join(repository.worktreesDir, name);
  const branch = branchOf(name);
  const diagnostics: Diagnostic[] = [];
  let base = await resolveCommit(repository.root, 'refs/remotes/origin/HEAD');
  if (base === undefined) {
    base = await resolveCommit(repository.root, 'HEAD');
    if (base === undefined) {
      throw createFailure(
        `Agent '${options.agent}' wants a worktree, but ${repository.root} has no commit to start its branch from. Make a first commit, then run again.`,
        {name, repository: repository.root},
      );
    }
    diagnostics.push({
      code: 'STRATOS_WORKTREE_BASE_LOCAL_HEAD',
      severity: 'warning',
      message: `Worktree '${name}' of agent '${options.agent}' started from local HEAD (${base.commit.slice(0, 12)}) because ${repository.root} has no refs/remotes/origin/HEAD. Run 'git remote set-head origin --auto' to start new worktrees from the origin's default branch.`,
    });
  }
  await ensureIgnored(repository);
  const added = await git(options, repository, () =>
    runGit(['worktree', 'add', '-b', branch, path, base.commit], repository.root),
  );
  if (!added.ok) {
    throw createFailure(`Worktree '${name}' could not be created: ${gitComplaint(added)}.`, {
      name,
      path,
      branch,
    });
  }
  return {name, repository: repository.root, path, branch, origin: 'created', base, diagnostics};
}

/** Adds this run to the record (created when absent); a `cleanup: false` request sets the protection for good. */
export async function register<T extends Omit<Lease, 'diagnostics' | 'base'>>(
  lease: T,
  options: AcquireWorktreeOptions,
  records: string,
): Promise<T> {
  const previous = await readRecord(records, lease.name);
  let record: WorktreeRecord;
  if (previous !== undefined && (lease.origin === 'reused' || lease.origin === 'resumed')) record = previous;
  else {
    // A checkout made now replaces any that is gone: a protection ended with the checkout it protected.
    record = {
      schemaVersion: 1,
      repository: lease.repository,
      name: lease.name,
      path: lease.path,
      branch: lease.branch,
      protected: false,
      users: previous?.users ?? [],
      updatedAt: '',
    };
  }
  if (!record.users.some((user) => user.runId === options.runId && user.pid === process.pid))
    record.users.push(currentUser(options.runId, options.runDirectory));
  if (!options.cleanup && !record.protected) {
    record.protected = true;
    record.protectedBy = {runId: options.runId, agent: options.agent, at: new Date().toISOString()};
  }
  await writeRecord(records, record);
  return lease;
}

/** One git worktree administration command, serialized per repository. */
function git<T>(options: AcquireWorktreeOptions, repository: Repository, fn: () => Promise<T>): Promise<T> {
  return withRepositoryLock(options.stratosHome, repository.root, fn, options.lockTimeoutMs);
}

async function isTaken(repository: Repository, name: string, records: string): Promise<boolean> {
  if (await pathExists(join(repository.worktreesDir, name))) return true;
  if (await branchExists(repository.root, branchOf(name))) return true;
  return pathExists(join(records, `${name}.json`));
}

async function branchExists(root: string, branch: string): Promise<boolean> {
  return (await runGit(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], root)).ok;
}

async function resolveCommit(root: string, ref: string): Promise<{ref: string; commit: string} | undefined> {
  const result = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root);
  return result.ok ? {ref, commit: result.stdout.trim()} : undefined;
}

async function pathExists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** `<repo>/.stratos/worktrees/.gitignore` with `*`: the folder ignores itself, and no rule of the author changes. */
async function ensureIgnored(repository: Repository): Promise<void> {
  await mkdir(repository.worktreesDir, {recursive: true});
  const file = join(repository.worktreesDir, '.gitignore');
  if (!(await pathExists(file))) await writeFile(file, '# Managed agent worktrees of Stratos.\n*\n');
}

/** The agent's directory mapped into the checkout when the checkout has it; else the checkout's root. */
export async function counterpart(directory: string, checkout: string): Promise<string> {
  const top = await runGit(['rev-parse', '--show-toplevel'], directory);
  if (!top.ok) return checkout;
  const inside = relative(await realpath(top.stdout.trim()), await realpath(directory));
  if (inside === '' || inside.startsWith('..')) return checkout;
  const mapped = join(checkout, inside);
  return (await pathExists(mapped)) ? mapped : checkout;
}
