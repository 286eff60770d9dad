/**
 * Stratos's session settings as Claude Code's SDK options. Isolation: `settingSources: []` (no user, project or
 * local settings) and `strictMcpConfig` (only the MCP servers Stratos passes).
 */
import type {HookCallbackMatcher, HookEvent, McpServerConfig, Options} from '@anthropic-ai/claude-agent-sdk';
import type {AgentMcpServer, HarnessSessionOptions} from '../../harness.ts';

/**
 * Tools that wait for a person (questions, plan approval). Agents run noninteractively, and the binary offers them
 * only because Stratos answers permission requests itself (`canUseTool`): removed, so they cost no request tokens.
 */
const interactiveTools = ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'];

/** The query options of a session; `hooks` are its native tool hooks (./tool-hooks.ts). */
export function toNativeOptions(
  o: HarnessSessionOptions,
  hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>>,
): Options {
  return {
    cwd: o.workingDirectory,
    env: o.env,
    settingSources: [],
    strictMcpConfig: true,
    mcpServers: toNativeServers(o.mcpServers, o.workingDirectory),
    disallowedTools: [...o.tools.removed, ...interactiveTools],
    ...(o.model === undefined ? {} : {model: o.model}),
    ...(o.resumeConversation === undefined ? {} : {resume: o.resumeConversation}),
    ...(o.effort === undefined ? {} : {effort: o.effort as NonNullable<Options['effort']>}),
    ...(o.systemPrompt === undefined ? {} : {systemPrompt: o.systemPrompt}),
    // Fixed for the query's life (no control request changes it): it bounds this conversation's own spend. The
    // binary refuses to start with 0 or less; a budget already spent is refused or stopped by Stratos itself.
    ...(o.maxBudgetUsd === undefined || !(o.maxBudgetUsd > 0) ? {} : {maxBudgetUsd: o.maxBudgetUsd}),
    ...(o.outputJsonSchema === undefined
      ? {}
      : {outputFormat: {type: 'json_schema', schema: o.outputJsonSchema}}),
    // Enabled tools are approved by default; control belongs to the before-tool hook.
    canUseTool: async (_name, input) => ({behavior: 'allow', updatedInput: input}),
    hooks,
    // Stream events carry the real boundaries and final usage of each model call (./translate-events.ts).
    includePartialMessages: true,
    stderr: () => {},
  };
}

/** The selected MCP servers as Claude Code's `mcpServers` (also for `setMcpServers` between prompts). */
export function toNativeServers(
  servers: readonly AgentMcpServer[],
  workingDirectory: string,
): Record<string, McpServerConfig> {
  const native: Record<string, McpServerConfig> = {};
  for (const server of servers) {
    if (server.type === 'http') {
      native[server.name] = {type: 'http', url: server.url, headers: server.headers};
      continue;
    }
    // Claude Code starts stdio servers in the agent's directory; Stratos's contract is the workflow directory.
    const inPlace = server.cwd === undefined || server.cwd === workingDirectory;
    native[server.name] = inPlace
      ? {type: 'stdio', command: server.command, args: server.args, env: server.env}
      : {
          type: 'stdio',
          command: '/bin/sh',
          args: ['-c', 'cd "$0" && exec "$@"', server.cwd!, server.command, ...server.args],
          env: server.env,
        };
  }
  return native;
}
