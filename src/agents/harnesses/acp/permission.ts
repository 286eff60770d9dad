/**
 * `session/request_permission`: where an ACP agent asks before a tool call, and where the beforeTool hook decides.
 * Allow selects the agent's allow-once option (allow-always when it offers only that); deny selects reject-once and
 * passes the feedback in the response's `_meta.feedback` (ACP has no feedback field: whether the model sees it is
 * the agent's choice). ACP cannot change a call's input, so `modify` fails the turn
 * (STRATOS_AGENT_HOOK_UNSUPPORTED) and the call is refused. With no hook the call is allowed: the agent's tools
 * are its own selection, and nobody is ever asked.
 */
import {StratosError} from '../../../errors/stratos-error.ts';
import type {AgentHooks} from '../../harness-kit/hooks.ts';
import {HookFailure} from '../../harness-kit/hooks.ts';

interface PermissionOption {
  optionId: string;
  kind: string;
}

/** The answer to one permission request (the ACP `RequestPermissionResponse`). */
export type PermissionAnswer =
  | {outcome: {outcome: 'cancelled'}}
  | {outcome: {outcome: 'selected'; optionId: string}; _meta?: {feedback: string}};

/** A hook decision ACP cannot carry out. */
export function unsupportedDecision(hook: 'beforeTool' | 'afterTool', action: string): StratosError {
  return new StratosError(
    'STRATOS_AGENT_HOOK_UNSUPPORTED',
    `The ${hook} hook decided '${action}', which an ACP agent cannot carry out: the Agent Client Protocol lets a client allow or refuse a tool call, not ${action === 'modify' ? "change the call's input" : 'take back the result the agent already has'}. Return allow or deny instead.`,
    {details: {harness: 'acp', hook, action}},
  );
}

/**
 * Decides one permission request. `fail` ends the turn with the hook's failure; the answer then refuses the call.
 */
export async function decidePermission(options: {
  call: Parameters<NonNullable<AgentHooks['beforeTool']>>[0];
  options: readonly PermissionOption[];
  hooks: AgentHooks;
  fail: (error: unknown) => void;
  deny: () => void;
}): Promise<PermissionAnswer> {
  const pick = (...kinds: string[]) => {
    for (const kind of kinds) {
      const option = options.options.find((candidate) => candidate.kind === kind);
      if (option !== undefined) return option.optionId;
    }
    return undefined;
  };
  const allow = (): PermissionAnswer => {
    const optionId = pick('allow_once', 'allow_always');
    return optionId === undefined
      ? {outcome: {outcome: 'cancelled'}}
      : {outcome: {outcome: 'selected', optionId}};
  };
  const refuse = (feedback?: string): PermissionAnswer => {
    options.deny();
    const optionId = pick('reject_once', 'reject_always');
    if (optionId === undefined) return {outcome: {outcome: 'cancelled'}};
    return {outcome: {outcome: 'selected', optionId}, ...(feedback === undefined ? {} : {_meta: {feedback}})};
  };
  const beforeTool = options.hooks.beforeTool;
  if (beforeTool === undefined) return allow();
  try {
    const decision = await beforeTool(options.call);
    if (decision === undefined || decision.action === 'allow') return allow();
    if (decision.action === 'deny') return refuse(decision.feedback);
    options.fail(unsupportedDecision('beforeTool', decision.action));
    return refuse();
  } catch (error) {
    options.fail(new HookFailure('beforeTool', error));
    return refuse();
  }
}
