/**
 * Telemetry of work an agent's harness does away from the conversation itself: tasks (Claude Code's sub-agents
 * of its Agent/Task tool, background commands) and what they do. It lives as long as the agent, not one turn, so
 * work reported after its prompt returned (during a later prompt, or between prompts) still lands under the tool
 * call that started it instead of being dropped or put under whatever turn runs then.
 */
import {type OperationHandle, type TelemetryAttributes, toRecordedJson} from '../telemetry/index.ts';
import type {AgentEvent} from './harness-kit/hooks.ts';
import {toolEndAttributes, toolFailure} from './turn-telemetry.ts';

/** Tool spans that already ended, kept so a task the harness reports late still finds its tool call. */
const endedToolsKept = 64;

/**
 * The tree: agent turn → `execute_tool <Agent>` → `task <description>` (kind `agent.task`, begun as outliving
 * its tool call, which returns at once for a background task) → the sub-agent's tool spans and `agent.model`
 * events (Claude Code reports only the end of a sub-agent's model response) → nested tasks the same way.
 */
export class SpawnedWorkTelemetry {
  /** Open tool spans by native call id: the agent's own (registered by its turn) and its sub-agents'. */
  #tools = new Map<string, OperationHandle>();
  #endedTools = new Map<string, OperationHandle>();
  /** Open task spans by task id, and the same spans by the id of the tool call that started them. */
  #tasks = new Map<string, {handle: OperationHandle; toolCallId: string | undefined}>();
  #taskByTool = new Map<string, OperationHandle>();

  /** A tool span of the conversation itself, so a task it starts can hang under it. */
  registerTool(id: string, handle: OperationHandle): void {
    this.#tools.set(id, handle);
  }

  /** The conversation's tool call ended; its span stays findable for a late task report for a while. */
  releaseTool(id: string): void {
    const handle = this.#tools.get(id);
    if (handle === undefined) return;
    this.#tools.delete(id);
    this.#endedTools.set(id, handle);
    if (this.#endedTools.size > endedToolsKept) {
      const oldest = this.#endedTools.keys().next().value;
      if (oldest !== undefined) this.#endedTools.delete(oldest);
    }
  }

  /**
   * Records `event` when it is spawned work (a task boundary, or work carrying an `origin` this agent knows);
   * returns false for anything else, which belongs to the running turn.
   */
  observe(event: AgentEvent): boolean {
    switch (event.type) {
      case 'task.start':
        this.#startTask(event);
        return true;
      case 'task.end':
        this.#endTask(event);
        return true;
      case 'tool.start': {
        const owner = this.#owner(event.origin);
        if (owner === undefined) return false;
        if (this.#tools.has(event.id)) return true;
        const {call} = event;
        this.#tools.set(
          event.id,
          owner.begin({
            kind: 'agent.tool',
            name: `execute_tool ${call.nativeName}`,
            attributes: {
              'gen_ai.tool.name': call.nativeName,
              'gen_ai.tool.call.id': event.id,
              'gen_ai.tool.call.arguments': toRecordedJson(call.input),
              'stratos.tool.canonical_name': call.canonicalName,
              'stratos.tool.origin': event.origin,
              'mcp.server': call.mcp?.server,
              'mcp.tool': call.mcp?.tool,
            },
          }),
        );
        return true;
      }
      case 'tool.end': {
        if (event.origin === undefined) return false;
        const handle = this.#tools.get(event.id);
        if (handle === undefined) return this.#owner(event.origin) !== undefined;
        this.releaseTool(event.id);
        const attributes = toolEndAttributes(event);
        if (event.ok) handle.end(attributes);
        else handle.fail(toolFailure(event), attributes);
        return true;
      }
      case 'model.end': {
        const owner = this.#owner(event.origin);
        if (owner === undefined) return false;
        owner.addEvent('agent.model', {
          'gen_ai.response.model': event.model,
          ...(event.error === undefined ? {} : {'error.type': event.error}),
        });
        return true;
      }
      default:
        return false;
    }
  }

  #startTask(event: Extract<AgentEvent, {type: 'task.start'}>): void {
    if (this.#tasks.has(event.id)) return;
    const tool =
      event.toolCallId === undefined
        ? undefined
        : (this.#tools.get(event.toolCallId) ?? this.#endedTools.get(event.toolCallId));
    // A task no known tool call started has nowhere true to go; it is not guessed onto the running turn.
    if (tool === undefined) return;
    const attributes: TelemetryAttributes = {
      'stratos.task.id': event.id,
      'stratos.task.type': event.taskType,
      'stratos.task.background': event.background,
      'gen_ai.tool.call.id': event.toolCallId,
      ...(event.taskType === 'local_agent' || event.subagentType !== undefined
        ? {'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': event.subagentType}
        : {}),
    };
    const handle = tool.begin(
      {kind: 'agent.task', name: `task ${event.description}`, attributes},
      {outlivesParent: true},
    );
    this.#tasks.set(event.id, {handle, toolCallId: event.toolCallId});
    if (event.toolCallId !== undefined) this.#taskByTool.set(event.toolCallId, handle);
  }

  #endTask(event: Extract<AgentEvent, {type: 'task.end'}>): void {
    const task = this.#tasks.get(event.id);
    if (task === undefined) return;
    this.#tasks.delete(event.id);
    if (task.toolCallId !== undefined) this.#taskByTool.delete(task.toolCallId);
    const attributes: TelemetryAttributes = {
      'stratos.task.status': event.status,
      'stratos.task.total_tokens': event.totalTokens,
      'stratos.task.tool_uses': event.toolUses,
    };
    if (event.status === 'completed') task.handle.end(attributes);
    else if (event.status === 'stopped') task.handle.cancel(attributes);
    else task.handle.fail({name: 'TaskFailed', message: `The task ${event.id} failed.`}, attributes);
  }

  /** Where work of `origin` goes: the task its tool call started, else that tool call's own open span. */
  #owner(origin: string | undefined): OperationHandle | undefined {
    if (origin === undefined) return undefined;
    return this.#taskByTool.get(origin) ?? this.#tools.get(origin);
  }
}
