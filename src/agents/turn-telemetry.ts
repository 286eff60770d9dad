/**
 * Spans of one agent turn from the harness's observations: model calls and tool calls as siblings under the
 * agent span, token usage only as reported.
 */
import {
  type OperationHandle,
  type OperationScope,
  type TelemetryAttributes,
  toRecordedJson,
} from '../telemetry/index.ts';
import type {SpendObserver} from './agent-spend.ts';
import type {AgentEvent, TokenCounts} from './harness-kit/hooks.ts';
import type {SpawnedWorkTelemetry} from './spawned-work-telemetry.ts';

/**
 * One turn's harness observations as telemetry under the agent span: each model call an `agent.model` span
 * (`chat <model or harness>`), each tool call an `agent.tool` span (`execute_tool <native name>`), as siblings.
 * Only observed boundaries make spans: an end without an observed start is an event (`agent.model`,
 * `agent.tool`), and a harness that reports usage only for the whole turn (Codex) gets one `agent.usage` event,
 * not invented model spans. Each plan the agent reports is an `agent.plan` event. A compaction of the conversation is an `agent.compaction` span (`compact
 * conversation`). Spans still open when the agent span ends close as `incomplete`. Work of sub-agents and
 * background tasks goes to the agent's SpawnedWorkTelemetry, which outlives the turn.
 */
export class TurnTelemetry {
  #scope: OperationScope;
  #harness: string;
  #model: string | undefined;
  #call: OperationHandle | undefined;
  #modelEnds = 0;
  #tools = new Map<string, OperationHandle>();
  #compaction: OperationHandle | undefined;
  #spawned: SpawnedWorkTelemetry | undefined;
  #spend: SpendObserver | undefined;

  constructor(
    scope: OperationScope,
    harness: string,
    model: string | undefined,
    spawned?: SpawnedWorkTelemetry,
    spend?: SpendObserver,
  ) {
    this.#scope = scope;
    this.#harness = harness;
    this.#model = model;
    this.#spawned = spawned;
    this.#spend = spend;
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'model.start':
        // A retried request is still the same model call: the first observed start counts.
        this.#call ??= this.#scope.begin({
          kind: 'agent.model',
          name: `chat ${this.#model ?? this.#harness}`,
          attributes: {'gen_ai.request.model': this.#model, 'stratos.agent.harness': this.#harness},
          ...(event.at === undefined ? {} : {startMs: event.at}),
        });
        return;
      case 'model.end': {
        if (event.origin !== undefined) {
          // A sub-agent's response whose spawning call this agent does not know: a point event, never the turn's call.
          this.#scope.addEvent('agent.model', {
            'gen_ai.response.model': event.model,
            'stratos.tool.origin': event.origin,
            ...this.#spend?.(event, 'call'),
          });
          return;
        }
        this.#modelEnds += 1;
        const call = this.#call;
        this.#call = undefined;
        // Each observed call is priced and added to the run's spend (agent-spend.ts), which may stop the turn.
        const attributes = {
          ...usageAttributes(event),
          'gen_ai.response.model': event.model,
          ...this.#spend?.(event, 'call'),
        };
        if (call === undefined)
          this.#scope.addEvent('agent.model', {
            ...attributes,
            ...(event.error === undefined ? {} : {'error.type': event.error}),
          });
        else if (event.error !== undefined)
          call.fail(
            {name: event.error, message: `The model request failed (${event.error}).`},
            attributes,
            event.at,
          );
        else call.end(attributes, event.at);
        return;
      }
      case 'tool.start': {
        if (this.#tools.has(event.id)) return;
        const {call} = event;
        const handle = this.#scope.begin({
          kind: 'agent.tool',
          name: `execute_tool ${call.nativeName}`,
          attributes: {
            'gen_ai.tool.name': call.nativeName,
            'gen_ai.tool.call.id': event.id,
            'gen_ai.tool.call.arguments': toRecordedJson(call.input),
            'stratos.tool.canonical_name': call.canonicalName,
            'mcp.server': call.mcp?.server,
            'mcp.tool': call.mcp?.tool,
          },
          ...(event.at === undefined ? {} : {startMs: event.at}),
        });
        this.#tools.set(event.id, handle);
        this.#spawned?.registerTool(event.id, handle);
        return;
      }
      case 'tool.end': {
        const handle = this.#tools.get(event.id);
        this.#tools.delete(event.id);
        this.#spawned?.releaseTool(event.id);
        const attributes = toolEndAttributes(event);
        if (handle === undefined) {
          this.#scope.addEvent('agent.tool', {
            'gen_ai.tool.name': event.call.nativeName,
            'gen_ai.tool.call.id': event.id,
            'stratos.outcome': event.ok ? 'ok' : 'error',
            ...attributes,
          });
        } else if (event.ok) handle.end(attributes, event.at);
        else handle.fail(toolFailure(event), attributes, event.at);
        return;
      }
      case 'compaction.start':
        this.#compaction ??= this.#scope.begin({kind: 'agent.compaction', name: 'compact conversation'});
        return;
      case 'compaction.end': {
        const handle = this.#compaction;
        this.#compaction = undefined;
        const attributes = {
          'stratos.compaction.trigger': event.trigger,
          'stratos.compaction.pre_tokens': event.preTokens,
          'stratos.compaction.post_tokens': event.postTokens,
        };
        if (handle === undefined)
          this.#scope.addEvent('agent.compaction', {
            ...attributes,
            ...(event.error === undefined ? {} : {'error.type': 'CompactionFailed'}),
          });
        else if (event.error !== undefined)
          handle.fail(
            {name: 'CompactionFailed', message: `The compaction failed: ${event.error}`},
            attributes,
          );
        else handle.end(attributes);
        return;
      }
      case 'plan':
        // The whole plan each time it changes, as parallel lists (span attributes hold no objects).
        this.#scope.addEvent('agent.plan', {
          'stratos.plan.entries': event.entries.map((entry) => entry.content),
          'stratos.plan.statuses': event.entries.map((entry) => entry.status),
          'stratos.plan.priorities': event.entries.map((entry) => entry.priority),
        });
        return;
      case 'usage':
        // Turn-level usage is the sum of the model calls when those were observed; recorded only without them
        // (the harness's own cost figure for the turn is still recorded beside the computed ones).
        if (this.#modelEnds === 0)
          this.#scope.addEvent('agent.usage', {...usageAttributes(event), ...this.#spend?.(event, 'turn')});
        else if (event.nativeCostUsd !== undefined)
          this.#scope.setAttributes(this.#spend?.(event, 'native') ?? {});
        return;
      default:
        return;
    }
  }
}

function usageAttributes(counts: TokenCounts): TelemetryAttributes {
  return {
    'gen_ai.usage.input_tokens': counts.inputTokens,
    'gen_ai.usage.output_tokens': counts.outputTokens,
    'gen_ai.usage.cache_read.input_tokens': counts.cacheReadInputTokens,
    'gen_ai.usage.cache_creation.input_tokens': counts.cacheCreationInputTokens,
  };
}

/** What a tool call's end adds to its span: the hook's decision and the result as reported. */
export function toolEndAttributes(event: Extract<AgentEvent, {type: 'tool.end'}>): TelemetryAttributes {
  return {
    'stratos.tool.decision': event.decision,
    'gen_ai.tool.call.result': toRecordedJson(event.result),
  };
}

/** The error a failed, denied or withheld tool call is recorded with (`ToolFailed`, `ToolDenied`, `ToolResultWithheld`). */
export function toolFailure(event: Extract<AgentEvent, {type: 'tool.end'}>): {name: string; message: string} {
  if (event.decision === 'deny')
    return {name: 'ToolDenied', message: `The beforeTool hook denied the call: ${event.error ?? ''}`};
  if (event.decision === 'withhold')
    return {
      name: 'ToolResultWithheld',
      message: `The afterTool hook withheld the result: ${event.error ?? ''}`,
    };
  return {name: 'ToolFailed', message: event.error ?? 'The tool call failed.'};
}
