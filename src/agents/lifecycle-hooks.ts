/**
 * The lifecycle hooks around one execute: `onStart` before the turn, `onComplete` with its output, `onError` with
 * its failure. A hook that throws fails the execute with STRATOS_AGENT_HOOK_FAILED; a throwing `onError` keeps the
 * original failure beside its own.
 */
import {AgentRunError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {AgentHooks, AgentLifecycleEvent} from './harness-kit/hooks.ts';

/**
 * Runs `turn` between the lifecycle hooks. `harness` is read when a hook fails: selection may have changed it
 * since the event was made.
 * @throws AgentRunError STRATOS_AGENT_HOOK_FAILED, or whatever `turn` throws.
 */
export async function runWithLifecycleHooks<Output>(
  hooks: AgentHooks,
  event: AgentLifecycleEvent,
  harness: () => string,
  turn: () => Promise<Output>,
): Promise<Output> {
  try {
    if (hooks.onStart !== undefined) await runHook('onStart', () => hooks.onStart!(event), event, harness);
    const output = await turn();
    if (hooks.onComplete !== undefined)
      await runHook('onComplete', () => hooks.onComplete!({...event, output}), event, harness);
    return output;
  } catch (error) {
    if (hooks.onError !== undefined) {
      try {
        await hooks.onError({...event, error});
      } catch (hookError) {
        // Both are kept: the original failure stays the error, the reporting failure rides along.
        throw new AgentRunError(
          `the onError hook threw while reporting a failure: ${describeError(hookError)}`,
          {
            code: 'STRATOS_AGENT_HOOK_FAILED',
            agent: event.agent,
            harness: harness(),
            cause: new AggregateError([error, hookError], 'execution failure and onError hook failure'),
          },
        );
      }
    }
    throw error;
  }
}

async function runHook(
  hook: string,
  fn: () => void | Promise<void>,
  event: AgentLifecycleEvent,
  harness: () => string,
): Promise<void> {
  try {
    await fn();
  } catch (error) {
    throw new AgentRunError(`the ${hook} hook threw: ${describeError(error)}`, {
      code: 'STRATOS_AGENT_HOOK_FAILED',
      agent: event.agent,
      harness: harness(),
      cause: error,
    });
  }
}
