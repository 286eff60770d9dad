/**
 * What the Claude Code binary reports of work away from the conversation itself, as AgentEvents: tasks
 * (`task_started` to `task_notification`: a sub-agent of the Agent/Task tool, a background command), a
 * sub-agent's model responses (assistant messages with `parent_tool_use_id`: no stream events, so only their end),
 * the `origin` of a sub-agent's hook calls (their `agent_id` is the task id) and compaction (the `compacting`
 * status to `compact_boundary`). Reported whether or not a prompt is running: sub-agents run in the background by
 * default, so their work often arrives after the prompt's result.
 */
import type {SDKMessage} from '@anthropic-ai/claude-agent-sdk';
import type {AgentEvent} from '../../harness-kit/hooks.ts';

export class SpawnedWork {
  /** Tasks the binary started: task id → the spawning tool call's id. */
  #tasks = new Map<string, string | undefined>();
  /** The last sub-agent response seen per spawning tool call (one assistant message per content block). */
  #subagentResponses = new Map<string, string>();

  /** `{origin}` for a hook that fired inside a sub-agent (its `agent_id` is the task id), else nothing. */
  originOf(agentId: string | undefined): {origin?: string} {
    if (agentId === undefined) return {};
    const origin = this.#tasks.get(agentId);
    return origin === undefined ? {} : {origin};
  }

  /**
   * Tasks, sub-agent messages and compaction; true when `message` was one of them. A sub-agent's messages carry
   * `parent_tool_use_id`; they are never the turn's text or its model calls.
   */
  observe(message: SDKMessage, emit: (event: AgentEvent) => void): boolean {
    if (message.type === 'system') {
      switch (message.subtype) {
        case 'task_started':
          this.#tasks.set(message.task_id, message.tool_use_id);
          emit({
            type: 'task.start',
            id: message.task_id,
            ...(message.tool_use_id === undefined ? {} : {toolCallId: message.tool_use_id}),
            description: message.description,
            ...(message.task_type === undefined ? {} : {taskType: message.task_type}),
            ...(message.subagent_type === undefined ? {} : {subagentType: message.subagent_type}),
            background: message.is_backgrounded === true,
          });
          return true;
        case 'task_notification':
          emit({
            type: 'task.end',
            id: message.task_id,
            ...(message.tool_use_id === undefined ? {} : {toolCallId: message.tool_use_id}),
            status: message.status,
            ...(message.usage === undefined
              ? {}
              : {totalTokens: message.usage.total_tokens, toolUses: message.usage.tool_uses}),
          });
          this.#tasks.delete(message.task_id);
          if (message.tool_use_id !== undefined) this.#subagentResponses.delete(message.tool_use_id);
          return true;
        case 'task_progress':
        case 'task_updated':
        case 'background_tasks_changed':
          return true;
        case 'status':
          if (message.status === 'compacting') {
            emit({type: 'compaction.start'});
            return true;
          }
          if (message.compact_result === 'failed') {
            emit({type: 'compaction.end', error: message.compact_error ?? 'failed'});
            return true;
          }
          return false;
        case 'compact_boundary': {
          const meta = message.compact_metadata;
          emit({
            type: 'compaction.end',
            trigger: meta.trigger,
            preTokens: meta.pre_tokens,
            ...(meta.post_tokens === undefined ? {} : {postTokens: meta.post_tokens}),
          });
          return true;
        }
        default:
          return false;
      }
    }
    if (message.type === 'stream_event' || message.type === 'user')
      return message.parent_tool_use_id !== null;
    if (message.type !== 'assistant' || message.parent_tool_use_id === null) return false;
    const origin = message.parent_tool_use_id;
    const id = message.message.id;
    if (this.#subagentResponses.get(origin) !== id) {
      this.#subagentResponses.set(origin, id);
      emit({
        type: 'model.end',
        origin,
        model: message.message.model,
        ...(message.error === undefined ? {} : {error: message.error}),
      });
    }
    return true;
  }
}
