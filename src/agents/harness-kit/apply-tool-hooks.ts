/**
 * The tool-hook rules, written once (design philosophy, "Hooks control work; events describe it"): what a
 * `beforeTool` or `afterTool` decision means for the call. Every adapter's native hook and the MCP hook bridge ask
 * these two functions and translate the outcome into their own answer (a native permission decision, an MCP
 * result); none of them reads a decision itself.
 *
 * - before: nothing or `allow` runs the call unchanged; `deny` stops it with the feedback for the model; `modify`
 *   runs it with the returned input (a copy); a decision with any other action runs it unchanged.
 * - after: nothing or `keep` keeps the result; `withhold` replaces it with the feedback; any other action keeps it.
 * - a hook that throws: `fail`, with the HookFailure that fails the execution (the caller stops the turn).
 */
import {type AgentHooks, HookFailure, type ToolCall} from './hooks.ts';

/** What to do with a call after the before-tool hook: run it (maybe with changed input), deny it, or fail. */
export type BeforeToolOutcome =
  | {action: 'run'; input: Record<string, unknown>; modified: boolean}
  | {action: 'deny'; feedback: string}
  | {action: 'fail'; failure: HookFailure};

/** What to do with a result after the after-tool hook: keep it, withhold it with feedback, or fail. */
export type AfterToolOutcome =
  | {action: 'keep'}
  | {action: 'withhold'; feedback: string}
  | {action: 'fail'; failure: HookFailure};

/**
 * Runs the agent's `beforeTool` hook for `call` (none: the call runs unchanged) and says what the harness does.
 * Never throws: a throwing hook is `{action: 'fail'}`.
 * @example
 * const outcome = await applyBeforeTool(hooks, call);
 * if (outcome.action === 'deny') return nativeDeny(outcome.feedback);
 */
export async function applyBeforeTool(hooks: AgentHooks, call: ToolCall): Promise<BeforeToolOutcome> {
  const unchanged = {action: 'run', input: call.input, modified: false} as const;
  if (hooks.beforeTool === undefined) return unchanged;
  let decision: Awaited<ReturnType<NonNullable<AgentHooks['beforeTool']>>>;
  try {
    decision = await hooks.beforeTool(call);
  } catch (error) {
    return {action: 'fail', failure: new HookFailure('beforeTool', error)};
  }
  if (decision?.action === 'deny') return {action: 'deny', feedback: decision.feedback};
  if (decision?.action === 'modify') return {action: 'run', input: {...decision.input}, modified: true};
  return unchanged;
}

/**
 * Runs the agent's `afterTool` hook for `call` and its `result` (none: the result is kept) and says what the
 * harness does. Never throws: a throwing hook is `{action: 'fail'}`.
 */
export async function applyAfterTool(
  hooks: AgentHooks,
  call: ToolCall,
  result: unknown,
): Promise<AfterToolOutcome> {
  if (hooks.afterTool === undefined) return {action: 'keep'};
  let decision: Awaited<ReturnType<NonNullable<AgentHooks['afterTool']>>>;
  try {
    decision = await hooks.afterTool({...call, result});
  } catch (error) {
    return {action: 'fail', failure: new HookFailure('afterTool', error)};
  }
  if (decision?.action === 'withhold') return {action: 'withhold', feedback: decision.feedback};
  return {action: 'keep'};
}
