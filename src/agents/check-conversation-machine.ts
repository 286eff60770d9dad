/**
 * Moving a run: an agent whose replayed turns ran on another machine cannot go on there. Its native conversation
 * (Claude Code's session, Codex's thread, OpenCode's session) and its managed worktree are files of the machine that
 * ran the turns; a worker elsewhere would fail on the harness's missing session or work in a checkout without the
 * earlier changes. So it is refused before the worktree, the harness or any request (docs/scale-out.md).
 */
import {StratosError} from '../errors/index.ts';
import type {MachineIdentity} from '../internal/machine-identity.ts';
import type {JournaledConversation} from './agent-resume.ts';

/**
 * Checks that the machine running this turn holds the conversation and worktree of the agent's replayed turns.
 * Turns journaled without a machine (a local run's) and agents with nothing to continue pass.
 * @throws StratosError STRATOS_QUEUE_SESSION_ELSEWHERE when they are on another machine.
 */
export function checkConversationMachine(
  agent: string,
  from: JournaledConversation | undefined,
  here: MachineIdentity | undefined,
): void {
  const there = from?.machine;
  if (from === undefined || there === undefined || here === undefined || there.id === here.id) return;
  const held = [
    ...(from.id === undefined ? [] : [`its ${from.harness} conversation (${from.id})`]),
    ...(from.worktree === undefined ? [] : [`its worktree (${from.worktree})`]),
  ];
  if (held.length === 0) return;
  throw new StratosError(
    'STRATOS_QUEUE_SESSION_ELSEWHERE',
    `Agent '${agent}' cannot continue on this machine: ${held.join(' and ')} ${held.length === 1 ? 'is' : 'are'} on ${describeMachine(there)}, where its earlier turns ran, and this run is now on ${describeMachine(here)}. Nothing was sent. Enqueue the workflow anew; to recover such runs, start the dead worker again on ${there.host}, under the same id (--id).`,
    {
      details: {
        agent,
        harness: from.harness,
        ...(from.id === undefined ? {} : {conversation: from.id}),
        ...(from.worktree === undefined ? {} : {worktree: from.worktree}),
        machine: there,
        here,
      },
    },
  );
}

function describeMachine(machine: MachineIdentity): string {
  return `machine ${machine.host} (machine id ${machine.id.slice(0, 12)})`;
}
