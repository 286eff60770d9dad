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
}

export class RunWorktrees implements WorktreeGate {
  #options: RunWorktreesOptions;
  #leased = new Map<string, Leased>();

  constructor(options: RunWorktreesOptions) {
    this.#options = options;
  }

  async acquire(request: WorktreeRequest): Promise<AcquiredWorktree> {
    const {acquireWorktree} = await import('./acquire-worktree.ts');
    const lease = await acquireWorktree({
      stratosHome: this.#options.stratosHome,
      directory: request.directory,
      agent: request.agent,
      name: request.name,
      cleanup: request.cleanup,
      runId: this.#options.runId,
      ...(this.#options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: this.#options.lockTimeoutMs}),
    }).catch((error: unknown) => {
      if (isStratosError(error)) throw error;
      // A failure of the bookkeeping itself (an unreadable record, a full disk): the agent does not start.
      throw new StratosError(
        'STRATOS_WORKTREE_CREATE_FAILED',
        `The worktree of agent '${request.agent}' could not be prepared: ${describeError(error)}. Fix the cause (the file named, or STRATOS_HOME's disk), then run again.`,
        {cause: error, details: {agent: request.agent}},
      );
    });
    for (const decision of lease.reconciled) this.#decided(decision, request.event, 'reconciled');
    const key = `${lease.repository}\0${lease.name}`;
    if (!this.#leased.has(key))
      this.#leased.set(key, {repository: lease.repository, name: lease.name, event: request.event});
    const message =
      lease.origin === 'reused'
        ? `Agent '${request.agent}' reuses worktree '${lease.name}' at ${lease.path} unchanged.`
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

  /** Whether any agent of this run acquired a worktree. */
  get used(): boolean {
    return this.#leased.size > 0;
  }

  /**
   * Applies the cleanup rules to every worktree this run acquired; `event` also records each decision on the
   * span that is open now (the top-level workflow span). Never throws.
   */
  async releaseAll(
    event: (name: string, attributes: TelemetryAttributes) => void,
  ): Promise<CleanupDecision[]> {
    if (this.#leased.size === 0) return [];
    const {cleanUpWorktree} = await import('./clean-up-worktree.ts');
    const decisions: CleanupDecision[] = [];
    for (const leased of this.#leased.values()) {
      const decision = await cleanUpWorktree({
        stratosHome: this.#options.stratosHome,
        repository: leased.repository,
        name: leased.name,
        runId: this.#options.runId,
        ...(this.#options.lockTimeoutMs === undefined ? {} : {lockTimeoutMs: this.#options.lockTimeoutMs}),
      });
      this.#decided(decision, leased.event, 'cleanup');
      this.#decided(decision, event, 'cleanup', false);
      decisions.push(decision);
    }
    this.#leased.clear();
    return decisions;
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
