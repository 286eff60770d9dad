/**
 * The Agent Client Protocol adapter, over @agentclientprotocol/sdk: any agent program that speaks ACP on stdio
 * (`opencode acp`, Gemini CLI, Goose, the Claude Code and Codex ACP adapters). One agent is one ACP session on one
 * agent process that the agent owns (./agent-process.ts): `initialize`, then `session/new` in the agent's working
 * directory (its worktree when it has one) with its selected MCP servers (./mcp-servers.ts); each execute is one
 * `session/prompt`. The agent's own model stays unless `model` picks one of the models it offers (a `model`
 * session configuration option). The system prompt, which ACP has no field for, opens the first prompt.
 */

import {resolveReferenceMap} from '../../../config/references.ts';
import {findExecutionContext} from '../../../context/execution-context.ts';
import type {AgentHarness, HarnessSessionOptions} from '../../harness.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {AcpSession} from './acp-session.ts';
import {type AcpAgentProcess, startAcpAgentProcess} from './agent-process.ts';
import {acpSdk} from './sdk.ts';
import {readAcpSettings} from './settings.ts';

export const acpHarness: AgentHarness = {
  id: 'acp',
  async createSession(options) {
    const sdk = await importHarnessSdk('acp', acpSdk, () => import('@agentclientprotocol/sdk'));
    const settings = readAcpSettings(options.settings ?? {});
    const env = {...options.env, ...(await resolveAgentEnv(settings.env, options))};
    let agent: AcpAgentProcess | undefined;
    try {
      agent = startAcpAgentProcess({
        command: settings.command,
        args: settings.args,
        cwd: options.workingDirectory,
        env,
      });
      return await AcpSession.start({sdk, agent, options, command: settings.command});
    } catch (error) {
      await agent?.stop();
      throw error;
    }
  },
};

/** The `env` setting with its `{env:}` and `{file:}` references resolved (relative files: the workflow folder). */
function resolveAgentEnv(
  values: Record<string, string>,
  options: HarnessSessionOptions,
): Promise<Record<string, string>> {
  const directory = findExecutionContext()?.workflow.directory ?? options.workingDirectory;
  return resolveReferenceMap(values, {
    directory,
    env: options.env,
    field: (name) => `env variable '${name}' of agent '${options.agent}'`,
  });
}
