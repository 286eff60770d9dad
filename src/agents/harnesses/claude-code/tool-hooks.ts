/**
 * The agent's tool hooks as Claude Code's native PreToolUse / PostToolUse / PostToolUseFailure callbacks, awaited by
 * the binary. The rules are the shared ones (../../harness-kit/apply-tool-hooks.ts); this file answers them
 * natively and reports each tool call from PreToolUse to PostToolUse(Failure) or a denial. Claude Code's own
 * machinery (ToolSearch, StructuredOutput) is reported but never shown to the hooks.
 */
import type {HookCallbackMatcher, HookEvent} from '@anthropic-ai/claude-agent-sdk';
import type {AgentMcpServer} from '../../harness.ts';
import {applyAfterTool, applyBeforeTool} from '../../harness-kit/apply-tool-hooks.ts';
import type {AgentEvent, AgentHooks, HookFailure} from '../../harness-kit/hooks.ts';
import {describeToolCall, parseMcpToolName} from '../../harness-kit/tool-call.ts';
import {claudeCodeTools} from './tools.ts';

/** Tools Claude Code uses for its own machinery; hooks do not see them (events and telemetry do). */
const internalTools = new Set(['ToolSearch', 'StructuredOutput']);

export interface ClaudeToolHookOptions {
  hooks: AgentHooks;
  emit: (event: AgentEvent) => void;
  mcpServers: readonly AgentMcpServer[];
  /** `{origin}` for a hook call inside a sub-agent (./spawned-work.ts). */
  originOf: (agentId: string | undefined) => {origin?: string};
  /** A control hook threw: the running turn fails with it (the binary would otherwise carry on). */
  onHookFailure: (failure: HookFailure) => void;
}

/** The fields of a native hook input that Stratos reads. */
interface NativeToolHookInput {
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  tool_response?: unknown;
  error?: string;
  agent_id?: string;
}

type ToolEnd = Omit<Extract<AgentEvent, {type: 'tool.end'}>, 'type' | 'id' | 'call'>;

/** The `hooks` option of a session. */
export function createNativeToolHooks(
  options: ClaudeToolHookOptions,
): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  const {hooks, emit} = options;
  const servers = options.mcpServers.map((server) => server.name);
  /** The call as hooks see it, and the reporting of its end. */
  const open = (input: unknown) => {
    const event = input as NativeToolHookInput;
    const call = describeToolCall(
      claudeCodeTools,
      event.tool_name,
      event.tool_input,
      parseMcpToolName(event.tool_name, servers),
    );
    const origin = options.originOf(event.agent_id);
    const id = event.tool_use_id;
    const ended = (end: ToolEnd) => emit({type: 'tool.end', id, call, ...end, ...origin});
    return {event, call, id, origin, ended, internal: internalTools.has(event.tool_name)};
  };
  const fail = (failure: HookFailure, ended: () => void): never => {
    ended();
    options.onHookFailure(failure);
    throw failure;
  };
  const allow = {hookEventName: 'PreToolUse' as const, permissionDecision: 'allow' as const};
  return {
    PreToolUse: [
      {
        hooks: [
          async (input) => {
            const {call, id, origin, ended, internal} = open(input);
            emit({type: 'tool.start', id, call, ...origin});
            if (internal || hooks.beforeTool === undefined) return {hookSpecificOutput: allow};
            const outcome = await applyBeforeTool(hooks, call);
            if (outcome.action === 'fail')
              return fail(outcome.failure, () => ended({ok: false, error: 'The beforeTool hook threw.'}));
            if (outcome.action === 'deny') {
              ended({ok: false, decision: 'deny', error: outcome.feedback});
              return {
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse' as const,
                  permissionDecision: 'deny' as const,
                  permissionDecisionReason: outcome.feedback,
                },
              };
            }
            if (!outcome.modified) return {hookSpecificOutput: allow};
            return {hookSpecificOutput: {...allow, updatedInput: outcome.input}};
          },
        ],
      },
    ],
    PostToolUse: [
      {
        hooks: [
          async (input) => {
            const {event, call, ended, internal} = open(input);
            if (internal || hooks.afterTool === undefined) {
              ended({ok: true, result: event.tool_response});
              return {};
            }
            const outcome = await applyAfterTool(hooks, call, event.tool_response);
            if (outcome.action === 'fail')
              return fail(outcome.failure, () => ended({ok: false, error: 'The afterTool hook threw.'}));
            if (outcome.action === 'keep') {
              ended({ok: true, result: event.tool_response});
              return {};
            }
            ended({ok: false, decision: 'withhold', error: outcome.feedback});
            return {
              hookSpecificOutput: {
                hookEventName: 'PostToolUse' as const,
                ...(call.mcp === undefined
                  ? {updatedToolOutput: outcome.feedback}
                  : {updatedMCPToolOutput: {content: [{type: 'text', text: outcome.feedback}]}}),
              },
            };
          },
        ],
      },
    ],
    PostToolUseFailure: [
      {
        hooks: [
          async (input) => {
            const {event, ended} = open(input);
            ended({ok: false, ...(event.error === undefined ? {} : {error: event.error})});
            return {};
          },
        ],
      },
    ],
  };
}
