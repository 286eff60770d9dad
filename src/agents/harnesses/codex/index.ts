/**
 * The Codex adapter, over @openai/codex-sdk: the SDK is imported when a session starts; a session (./session.ts)
 * is one Codex thread. Starting one prepares what the thread needs: the session's private folder with the
 * launcher (./process.ts), a CODEX_HOME of its own for a provider that must not see the saved login
 * (./provider-setup.ts), and the tool hooks. The Codex SDK has no hook API, so an agent with a before-tool or
 * after-tool hook gets the in-process MCP hook bridge (../../harness-kit/mcp-hook-bridge.ts): Codex is given the
 * bridge's URLs in place of the selected servers, and the bridge runs the hooks around each MCP tool call. A
 * before-tool hook also sees Codex's own tools through Codex's native PreToolUse command hooks (./tool-hooks.ts);
 * only web_search, which runs at the model provider, stays out of its sight, and createAgent refuses a before-tool
 * hook while it is enabled. The rest of the folder follows the adapter template (AGENTS.md, "How to add a harness
 * adapter"): ./native-options.ts, ./translate-events.ts, ./tools.ts, ./authentication.ts, ./sdk.ts.
 */
import {mkdir, mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {resolveStratosHome} from '../../../internal/stratos-home.ts';
import type {AgentHarness} from '../../harness.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {needsMcpHookBridge, startMcpHookBridge} from '../../harness-kit/mcp-hook-bridge.ts';
import {writeCodexLauncher} from './process.ts';
import {resolveCodexProvider} from './provider-setup.ts';
import {codexSdk} from './sdk.ts';
import {CodexSession, type CodexSessionResources, closeCodexResources} from './session.ts';
import {startCodexToolHook} from './tool-hooks.ts';

export const codexHarness: AgentHarness = {
  id: 'codex',
  continuesConversations: true,
  async createSession(options) {
    const sdk = await importHarnessSdk('codex', codexSdk, () => import('@openai/codex-sdk'));
    const resources: Partial<CodexSessionResources> = {
      directory: await mkdtemp(join(tmpdir(), 'stratos-codex-')),
    };
    try {
      if (resolveCodexProvider(options.provider, options.env).isolateHome) {
        // Outside /tmp (docs/contributing/harness-facts.md), owned by this session, removed at close.
        const homes = join(resolveStratosHome(options.env), 'harness-homes');
        await mkdir(homes, {recursive: true, mode: 0o700});
        resources.isolatedHome = await mkdtemp(join(homes, 'codex-'));
      }
      // The session exists before the bridge or the tool hook can report to it; failures are forwarded once both exist.
      let session: CodexSession | undefined;
      const beforeTool = options.hooks.beforeTool;
      if (beforeTool !== undefined) {
        resources.toolHook = await startCodexToolHook({
          beforeTool,
          directory: resources.directory!,
          emit: options.emit,
          onHookFailure: (failure) => session?.failTurn(failure),
        });
      }
      resources.launcher = await writeCodexLauncher(resources.directory!, resources.toolHook !== undefined);
      if (needsMcpHookBridge(options.hooks, options.mcpServers)) {
        resources.bridge = await startMcpHookBridge({
          hooks: options.hooks,
          servers: options.mcpServers,
          onHookFailure: (failure) => session?.failTurn(failure),
        });
      }
      session = new CodexSession(sdk, options, {
        directory: resources.directory!,
        launcher: resources.launcher,
        bridge: resources.bridge,
        toolHook: resources.toolHook,
        toolHookConfig: resources.toolHook?.config,
        isolatedHome: resources.isolatedHome,
      });
      return session;
    } catch (error) {
      await closeCodexResources(resources);
      throw error;
    }
  },
};
