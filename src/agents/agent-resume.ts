/**
 * Resume for agents: what an agent step keeps in the journal (the rendered prompt, the harness and its native
 * conversation identity), how a journaled turn is handed back, and the check that the harness can continue that
 * conversation before its first live request (never a silent fresh conversation).
 */
import {describeReplayedStep, replayOutcome} from '../context/replayed-step.ts';
import type {JournalEntry} from '../context/step-journal.ts';
import {StratosError} from '../errors/index.ts';
import type {MachineIdentity} from '../internal/machine-identity.ts';
import type {OperationScope} from '../telemetry/index.ts';
import type {AgentHarness} from './harness.ts';

/** The native conversation a journaled agent turn belonged to. */
export interface JournaledConversation {
  harness: string;
  /** Undefined when the harness reported none: it cannot be continued. */
  id: string | undefined;
  /** The managed worktree the turns worked in, when the agent had one. */
  worktree?: string;
  /** The machine that ran the turns (and holds the conversation and the worktree), when the run recorded it. */
  machine?: MachineIdentity;
}

/** The journal details of a completed agent turn. */
export function describeJournaledTurn(
  prompt: string,
  harness: string,
  conversation: string | undefined,
  worktree?: string,
): Record<string, unknown> {
  return {
    prompt,
    harness,
    ...(conversation === undefined ? {} : {conversation}),
    ...(worktree === undefined ? {} : {worktree}),
  };
}

export function readJournaledConversation(entry: JournalEntry): JournaledConversation | undefined {
  const harness = entry.details?.harness;
  if (typeof harness !== 'string') return;
  const id = entry.details?.conversation;
  const worktree = entry.details?.worktree;
  return {
    harness,
    id: typeof id === 'string' ? id : undefined,
    ...(typeof worktree === 'string' ? {worktree} : {}),
    ...(entry.machine === undefined ? {} : {machine: entry.machine}),
  };
}

/** The journaled answer of an agent turn, marked on its span as replayed. */
export function replayAgentTurn(entry: JournalEntry, scope: OperationScope): unknown {
  scope.setAttributes(describeReplayedStep(entry));
  return replayOutcome(entry);
}

/**
 * The conversation id the session continues, when earlier turns were replayed.
 * @throws StratosError STRATOS_RESUME_CONVERSATION_UNSUPPORTED when the harness cannot continue it.
 */
export function checkConversationContinuation(
  agent: string,
  harness: AgentHarness,
  from: JournaledConversation | undefined,
): string | undefined {
  if (from === undefined) return;
  if (from.harness === harness.id && from.id !== undefined && harness.continuesConversations === true)
    return from.id;
  const reason =
    from.harness !== harness.id
      ? `its earlier turns ran on ${from.harness}, and it now runs on ${harness.id}`
      : from.id === undefined
        ? `${harness.id} reported no conversation identity for its earlier turns`
        : `Stratos cannot continue a ${harness.id} conversation yet`;
  throw new StratosError(
    'STRATOS_RESUME_CONVERSATION_UNSUPPORTED',
    `Agent '${agent}' cannot continue the conversation of its replayed turns: ${reason}. Nothing was sent; run the workflow anew with 'stratos run'.`,
    {details: {agent, harness: harness.id, journaledHarness: from.harness}},
  );
}
