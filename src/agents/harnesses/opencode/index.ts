/**
 * The OpenCode adapter, over @opencode-ai/sdk with the `opencode` binary of `opencode-ai`: the SDK is imported when
 * a session starts. Starting one starts the MCP hook bridge when the agent has tool hooks (OpenCode has no hook
 * API, so tool hooks see MCP tools only, as on Codex), the agent's own `opencode serve` process (./process.ts)
 * configured by ./native-options.ts, an OpenCode session and its event subscription (./turn-events.ts); the
 * conversation is ./session.ts. The rest of the folder follows the adapter template (AGENTS.md, "How to add a
 * harness adapter"): ./translate-events.ts, ./tools.ts, ./authentication.ts, ./sdk.ts, with OpenCode's own
 * ./mcp-startup.ts, ./model-rejection.ts, ./ollama-provider.ts and ./provider-keys.ts.
 */
import type {AgentHarness} from '../../harness.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {
  type McpHookBridge,
  needsMcpHookBridge,
  startMcpHookBridge,
} from '../../harness-kit/mcp-hook-bridge.ts';
import {toServerSetup} from './native-options.ts';
import {createOpenCodeSession, findOpenCodeSession} from './open-session.ts';
import {type OpenCodeServer, startOpenCodeServer} from './process.ts';
import {openCodeSdk} from './sdk.ts';
import {OpenCodeSession} from './session.ts';
import {OpenCodeTurnEvents} from './turn-events.ts';

export const openCodeHarness: AgentHarness = {
  id: 'opencode',
  // Sessions live in OpenCode's own data folder (XDG_DATA_HOME/opencode, the user's), which outlives the server.
  continuesConversations: true,
  async createSession(options) {
    const sdk = await importHarnessSdk('opencode', openCodeSdk, () => import('@opencode-ai/sdk'));
    let bridge: McpHookBridge | undefined;
    let server: OpenCodeServer | undefined;
    let session: OpenCodeSession | undefined;
    let events: OpenCodeTurnEvents | undefined;
    try {
      if (needsMcpHookBridge(options.hooks, options.mcpServers)) {
        bridge = await startMcpHookBridge({
          hooks: options.hooks,
          servers: options.mcpServers,
          onHookFailure: (failure) => session?.failTurn(failure),
        });
      }
      const {model, env} = toServerSetup(options, bridge);
      server = await startOpenCodeServer({cwd: options.workingDirectory, env});
      const client = sdk.createOpencodeClient({baseUrl: server.url, directory: options.workingDirectory});
      const id =
        options.resumeConversation === undefined
          ? await createOpenCodeSession(client, options.agent)
          : await findOpenCodeSession(client, options.agent, options.resumeConversation);
      events = new OpenCodeTurnEvents(
        id,
        options.mcpServers.map((s) => s.name),
      );
      await events.open(client);
      session = new OpenCodeSession(options, {client, id, model, server, bridge, events});
      return session;
    } catch (error) {
      events?.close();
      await server?.stop();
      await bridge?.close();
      throw error;
    }
  },
};
