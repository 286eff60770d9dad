/**
 * A failed agent execution, shaped like execa's error: what ran (`agent`, `harness`), why it stopped
 * (`cancelled`) and the native failure as the standard `cause`. Agents have no time limit (the inactivity watchdog
 * of the design is deferred), so there is no `timedOut`.
 */
import type {ErrorCode} from './codes.ts';
import {StratosError} from './stratos-error.ts';

export interface AgentRunErrorOptions {
  code?: Extract<
    ErrorCode,
    | 'STRATOS_AGENT_RUN_FAILED'
    | 'STRATOS_AGENT_CANCELLED'
    | 'STRATOS_AGENT_HOOK_FAILED'
    | 'STRATOS_BUDGET_EXCEEDED'
  >;
  agent: string;
  harness: string;
  cancelled?: boolean;
  cause?: unknown;
}

/**
 * Thrown by `agent.execute(...)` when the harness fails, a hook throws, or the execution is cancelled. The
 * conversation stays initialized: a later explicit `execute` continues it (nothing is replayed).
 * @example
 * try {
 *   await agent.execute('Summarize the diff.');
 * } catch (error) {
 *   if (error instanceof AgentRunError && error.cancelled) return {summary: ''};
 *   throw error;
 * }
 */
export class AgentRunError extends StratosError {
  readonly agent: string;
  readonly harness: string;
  /** True when cancel() or the end of the invocation stopped the execution. */
  readonly cancelled: boolean;
  /** The message without the agent prefix, as execa's `shortMessage`. */
  readonly shortMessage: string;

  constructor(shortMessage: string, options: AgentRunErrorOptions) {
    const code =
      options.code ?? (options.cancelled === true ? 'STRATOS_AGENT_CANCELLED' : 'STRATOS_AGENT_RUN_FAILED');
    super(code, `Agent '${options.agent}' (${options.harness}): ${shortMessage}`, {
      cause: options.cause,
      details: {agent: options.agent, harness: options.harness},
    });
    this.name = 'AgentRunError';
    this.agent = options.agent;
    this.harness = options.harness;
    this.cancelled = options.cancelled ?? false;
    this.shortMessage = shortMessage;
  }
}
