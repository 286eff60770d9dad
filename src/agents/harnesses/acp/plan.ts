/**
 * An ACP `plan` session update as Stratos's `plan` observation: the agent's whole plan each time it changes (ACP
 * sends every entry each time). Entries keep their order; an entry that does not have ACP's shape (text, a status
 * and a priority among ACP's values) is skipped rather than guessed at.
 */
import type {AgentEvent, PlanEntry} from '../../harness-kit/hooks.ts';

const statuses: readonly string[] = ['pending', 'in_progress', 'completed'];
const priorities: readonly string[] = ['high', 'medium', 'low'];

/** The `plan` event of one update, or undefined when the update carries no entries list. */
export function toPlanEvent(update: Readonly<Record<string, unknown>>): AgentEvent | undefined {
  if (!Array.isArray(update.entries)) return undefined;
  const entries: PlanEntry[] = [];
  for (const entry of update.entries as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const {content, status, priority} = entry as Record<string, unknown>;
    if (typeof content !== 'string' || content === '') continue;
    if (typeof status !== 'string' || !statuses.includes(status)) continue;
    if (typeof priority !== 'string' || !priorities.includes(priority)) continue;
    entries.push({
      content,
      status: status as PlanEntry['status'],
      priority: priority as PlanEntry['priority'],
    });
  }
  return {type: 'plan', entries};
}
