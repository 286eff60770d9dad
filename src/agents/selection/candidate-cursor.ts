/**
 * The candidate cursor of one agent: which harness, provider and model its conversation runs on, which prepared
 * candidates are left, which were skipped and why, and when a failed first turn may fall back to the next one.
 * It holds no session and does no I/O; the agent object closes a rejected session before it moves the cursor.
 */
import {isStratosError, StratosError} from '../../errors/index.ts';
import type {AgentSelection, SelectionSkip} from '../agent-types.ts';
import {ModelUnavailableError} from '../harness-kit/model-unavailable-error.ts';
import type {HarnessId} from '../settings.ts';
import type {ReadyCandidate, SkippedCandidate} from './check-readiness.ts';

/** The harness, provider and model a conversation runs on (selection's choice, or the fixed settings). */
export interface AgentTarget {
  harness: HarnessId;
  model: string | undefined;
  provider: string | undefined;
  identity?: string;
}

/**
 * What a failed turn leads to. `restart`: the native session never got going (a selected MCP server could not
 * start), so it is discarded and a later execute starts a new one; `fall-back`: the model was rejected before any
 * work, so the next prepared candidate may be tried; `fail`: the selection is fixed and the error is the execute's.
 */
export type TurnFailureOutcome = 'restart' | 'fall-back' | 'fail';

/** A rejected candidate as the cursor recorded it: the skip, and the candidate that is current now. */
export interface CandidateRejection {
  skip: SelectionSkip;
  next: ReadyCandidate;
}

export class CandidateCursor {
  #current: AgentTarget;
  /** Ready candidates not yet tried (model preferences only); the first is the current one. */
  #ready: ReadyCandidate[] | undefined;
  #skipped: SelectionSkip[] = [];
  /** Set after the first turn that got past selection: from then on the selection is fixed. */
  #fixed = false;

  /** Starts on the fixed settings; with model preferences, `prepare` and `selectFirst` pick the target. */
  constructor(initial: AgentTarget) {
    this.#current = {...initial};
  }

  get current(): Readonly<AgentTarget> {
    return this.#current;
  }

  /** True once candidates were prepared (model preferences, at the first start-up). */
  get prepared(): boolean {
    return this.#ready !== undefined;
  }

  /** True once a turn got past selection, or a failure fixed it: no other candidate is tried after that. */
  get fixed(): boolean {
    return this.#fixed;
  }

  get skipped(): readonly SelectionSkip[] {
    return this.#skipped;
  }

  /** The outcome as `agent.selection` reports it, given how many native sessions have started. */
  describeSelection(sessionsStarted: number): AgentSelection {
    return {
      harness: this.#current.harness,
      provider: this.#current.provider,
      model: this.#current.model,
      ...(this.#current.identity === undefined ? {} : {identity: this.#current.identity}),
      skipped: [...this.#skipped],
      sessionsStarted,
    };
  }

  /** Takes the prepared candidates, once: the ready ones in trial order and those readiness skipped. */
  prepare(prepared: {ready: ReadyCandidate[]; skipped: SkippedCandidate[]}): void {
    this.#ready = [...prepared.ready];
    this.#skipped.push(...prepared.skipped);
  }

  /** Makes the first untried candidate the current target and returns it. */
  selectFirst(): ReadyCandidate {
    const candidate = this.#ready?.[0];
    if (candidate === undefined)
      throw new StratosError('STRATOS_INTERNAL', 'Selection found no prepared candidate to make current.');
    this.#current = {
      harness: candidate.harness,
      model: candidate.model,
      provider: candidate.provider,
      identity: candidate.identity,
    };
    return candidate;
  }

  /** Fixes the selection: a later failure never moves to another candidate. */
  fix(): void {
    this.#fixed = true;
  }

  /** What a failed turn leads to (see TurnFailureOutcome); `aborted`: the execution was cancelled. */
  decideFailure(error: unknown, aborted: boolean): TurnFailureOutcome {
    if (!this.#fixed && isStartupFailure(error)) return 'restart';
    if (this.#fixed || !(error instanceof ModelUnavailableError) || aborted) return 'fail';
    return 'fall-back';
  }

  /**
   * Records the current candidate as rejected by the model and moves past it; undefined (and nothing changes)
   * when no other prepared candidate is left. `selectFirst` then makes the next one current.
   */
  skipRejected(rejection: ModelUnavailableError): CandidateRejection | undefined {
    const rejected = this.#ready?.[0];
    const next = this.#ready?.[1];
    if (rejected === undefined || next === undefined) return undefined;
    const detail = `${rejected.harness} rejected '${rejected.model}' (${rejection.evidence}${rejection.status === undefined ? '' : `, HTTP ${rejection.status}`})`;
    const skip: SelectionSkip = {
      harness: rejected.harness,
      provider: rejected.provider,
      model: rejected.model,
      identity: rejected.identity,
      reason: 'model-rejected',
      detail,
    };
    this.#skipped.push(skip);
    this.#ready!.shift();
    return {skip, next};
  }
}

/**
 * A first turn that failed because the native session could not start what it needs before any request (a
 * selected MCP server): the same object may try again.
 */
function isStartupFailure(error: unknown): boolean {
  return isStratosError(error) && error.code === 'STRATOS_MCP_CONNECT_FAILED';
}
