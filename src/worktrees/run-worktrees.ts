/**
 * The worktrees of one top-level run (the `WorktreeGate` of its execution context, shared with every
 * descendant): agents acquire through it, and the runtime releases everything once the top-level run and all
 * its descendants have ended. This module stays light: git, SQLite and the file work load on first use.
 */
import type {AcquiredWorktree, WorktreeGate, WorktreeRequest} from '../context/execution-context.ts';
import {type Diagnostic, isStratosError, StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {TelemetryAttributes} from '../telemetry/index.ts';
import type {CleanupDecision} from './clean-up-worktree.ts';
import type {RecordedWorktree} from './reopen-worktree.ts';

interface Leased {
  repository: string;
  name: string;
  /** The span events of the agent that first acquired it in this run. */
  event: WorktreeRequest['event'];
}

export interface RunWorktreesOptions {
  /** The top-level run's execution id. */
  runId: string;
  stratosHome: string;
  /** Reports a warning of the run (result warnings and run.json). */
  report: (diagnostic: Diagnostic) => void;
  lockTimeoutMs?: number | undefined;
  /** The run's folder when it can be resumed: its checkouts are then held for resume when it does not succeed. */
  runDirectory?: string | undefined;
  /** Resume: the run resumed and its checkouts, reopened for the same agents; the runs a success releases. */
  resume?:
    | {resumedFrom: string; worktrees: readonly RecordedWorktree[]; lineage: readonly string[]}
    | undefined;
  /** Keeps the run's checkouts (all of them, each time one is added) in its resume.json. */
  remember?: ((worktrees: RecordedWorktree[]) => Promise<void>) | undefined;
}

export class RunWorktrees implements WorktreeGate {
  #options: RunWorktreesOptions;
  #leased = new Map<string, Leased>();
  /** Resume: the checkouts of this run and of the runs it resumes, by the first step key of their agent. */
  #recorded = new Map<string, RecordedWorktree>();
  #remembering: Promise<void> = Promise.resolve();

  constructor(options: RunWorktreesOptions) {
    this.#options = options;
    for (const worktree of options.resume?.worktrees ?? []) this.#recorded.set(worktree.key, worktree);
  }

  async acquire(request: WorktreeRequest): Promise<AcquiredWorktree> {
    const {acquireWorktree} = await import('./acquire-worktree.ts');
    const acquireOptions = {
      stratosHome: this.#options.stratosHome,
      directory: request.directory,
      agent: request.agent,
      name: request.name,
      cleanup: request.cleanup,
      runId: this.#options.runId,
      runDirectory: this.#options.runDirectory,
      ...(this.#options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: this.#options.lockTimeoutMs}),
    };
    const recorded = request.key === undefined ? undefined : this.#recorded.get(request.key);
    // The same agent with the same setting continues in its recorded checkout; a changed setting does not.
    const resumed =
      recorded !== undefined && (recorded.named ? recorded.name === request.name : request.name === undefined)
        ? recorded
        : undefined;
    const lease = await (resumed === undefined
      ? acquireWorktree(acquireOptions)
      : import('./reopen-worktree.ts').then(({reopenWorktree}) =>
          reopenWorktree(resumed, this.#options.resume!.resumedFrom, acquireOptions),
        )
    ).catch((error: unknown) => {
      if (isStratosError(error)) throw error;
      // A failure of the bookkeeping itself (an unreadable record, a full disk): the agent does not start.
      throw new StratosError(
        'STRATOS_WORKTREE_CREATE_FAILED',
        `The worktree of agent '${request.agent}' could not be prepared: ${describeError(error)}. Fix the cause (the file named, or STRATOS_HOME's disk), then run again.`,
        {cause: error, details: {agent: request.agent}},
      );
    });
    for (const decision of lease.reconciled) this.#decided(decision, request.event, 'reconciled');
    if (request.key !== undefined && resumed === undefined) await this.#remember(request, lease);
    const key = `${lease.repository}\0${lease.name}`;
    if (!this.#leased.has(key))
      this.#leased.set(key, {repository: lease.repository, name: lease.name, event: request.event});
    const message =
      lease.origin === 'reused'
        ? `Agent '${request.agent}' reuses worktree '${lease.name}' at ${lease.path} unchanged.`
        : lease.origin === 'resumed'
          ? `Agent '${request.agent}' continues in worktree '${lease.name}' at ${lease.path}, as run ${this.#options.resume?.resumedFrom} left it.`
          : lease.origin === 'recreated'
            ? `Agent '${request.agent}' recreated worktree '${lease.name}' at ${lease.path} from its branch ${lease.branch}.`
            : `Agent '${request.agent}' created worktree '${lease.name}' at ${lease.path} on a new branch ${lease.branch} from ${lease.base?.ref}.`;
    request.event(`stratos.worktree.${lease.origin}`, {
      ...subjectAttributes(lease),
      'stratos.worktree.base_ref': lease.base?.ref,
      'stratos.worktree.base_commit': lease.base?.commit,
      'stratos.worktree.cleanup': request.cleanup,
      'log.message': message,
    });
    for (const diagnostic of lease.diagnostics) this.#options.report(diagnostic);
    return {
      directory: lease.directory,
      name: lease.name,
      path: lease.path,
      branch: lease.branch,
      notice: `Your working directory ${lease.directory} is a Git worktree on branch ${lease.branch} whose lifecycle Stratos owns: edit and commit there, but do not remove, move or prune worktrees yourself.`,
    };
  }

  /** Keeps the checkout in the run's resume.json before the agent works in it; writes one after another. */
  #remember(
    request: WorktreeRequest,
    lease: {repository: string; name: string; path: string; branch: string},
  ): Promise<void> | undefined {
    const {remember} = this.#options;
    if (remember === undefined || request.key === undefined) return;
    const {repository, name, path, branch} = lease;
    this.#recorded.set(request.key, {
      key: request.key,
      agent: request.agent,
      repository,
      name,
      named: request.name !== undefined,
      path,
      branch,
    });
    const all = [...this.#recorded.values()];
    this.#remembering = this.#remembering.then(() =>
      remember(all).catch((error: unknown) =>
        this.#options.report({
          code: 'STRATOS_TELEMETRY_ARTIFACT_FAILED',
          severity: 'warning',
          message: `Worktree '${name}' could not be recorded in the run's resume.json, so a resume of this run will not find it: ${describeError(error)}`,
        }),
      ),
    );
    return this.#remembering;
  }

  /** Whether any agent of this run acquired a worktree. */
  get used(): boolean {
    return this.#leased.size > 0;
  }

  /**
   * Applies the cleanup rules to every worktree this run acquired; `event` also records each decision on the
   * span that is open now (the top-level workflow span). A run that did not succeed and can be resumed holds its
   * checkouts, those it inherited from the runs it resumes included; a successful one releases those runs' holds.
   * Never throws.
   */
  async releaseAll(
    event: (name: string, attributes: TelemetryAttributes) => void,
    ended: {succeeded: boolean} = {succeeded: true},
  ): Promise<CleanupDecision[]> {
    await this.#remembering;
    const inherited = await this.#listInherited();
    if (this.#leased.size === 0 && inherited.length === 0) return [];
    const {cleanUpWorktree} = await import('./clean-up-worktree.ts');
    const {runDirectory, resume} = this.#options;
    const holds =
      ended.succeeded || runDirectory === undefined ? {releaseHolds: resume?.lineage} : {hold: runDirectory};
    const decisions: CleanupDecision[] = [];
    for (const leased of [...this.#leased.values(), ...inherited]) {
      const decision = await cleanUpWorktree({
        stratosHome: this.#options.stratosHome,
        repository: leased.repository,
        name: leased.name,
        runId: this.#options.runId,
        ...holds,
        ...(this.#options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: this.#options.lockTimeoutMs}),
      });
      this.#decided(decision, leased.event, 'cleanup');
      this.#decided(decision, event, 'cleanup', false);
      decisions.push(decision);
    }
    this.#leased.clear();
    return decisions;
  }

  /** Checkouts of the resumed runs that no agent of this run reopened and that still have a record. */
  async #listInherited(): Promise<Leased[]> {
    const {readRecord, recordsDirectory} = await import('./worktree-records.ts');
    const inherited = new Map<string, Leased>();
    for (const worktree of this.#options.resume?.worktrees ?? []) {
      const key = `${worktree.repository}\0${worktree.name}`;
      if (this.#leased.has(key) || inherited.has(key)) continue;
      const directory = recordsDirectory(this.#options.stratosHome, worktree.repository);
      if ((await readRecord(directory, worktree.name).catch(() => undefined)) === undefined) continue;
      inherited.set(key, {repository: worktree.repository, name: worktree.name, event: () => {}});
    }
    return [...inherited.values()];
  }

  #decided(decision: CleanupDecision, event: WorktreeRequest['event'], phase: string, report = true): void {
    try {
      event(`stratos.worktree.${phase}`, {
        ...subjectAttributes(decision),
        'stratos.worktree.action': decision.action,
        'stratos.worktree.reason': decision.reason,
        'log.message': decision.message,
      });
    } catch {
      // Recording is best effort and never changes a cleanup decision.
    }
    if (report && decision.diagnostic !== undefined) this.#options.report(decision.diagnostic);
  }
}

function subjectAttributes(subject: {name: string; path: string; branch: string}): TelemetryAttributes {
  return {
    'stratos.worktree.name': subject.name,
    'stratos.worktree.path': subject.path,
    'stratos.worktree.branch': subject.branch,
  };
}
