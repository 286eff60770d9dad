/**
 * The Codex adapter, over @openai/codex-sdk. Codex keeps conversation identity across native turns: each execute
 * is one `codex exec` turn of the same thread (resumed by id), so no process lives between prompts.
 * Isolation: the binary is started with `--ignore-user-config` (no user config.toml, so no user MCP servers,
 * profiles or hooks; native login in CODEX_HOME still works) and everything Stratos selects is passed as
 * `--config`. When OPENAI_BASE_URL is set, it becomes a Responses API provider (`wire_api = "responses"`).
 * Tool hooks: the Codex SDK has no hook API, so an agent with a before-tool or after-tool hook gets the in-process
 * MCP hook bridge (../../harness-kit/mcp-hook-bridge.ts): Codex is given the bridge's URLs in place of the selected servers,
 * and the bridge runs the hooks around each MCP tool call. A before-tool hook also sees Codex's own tools through
 * Codex's native PreToolUse command hooks (./tool-hook.ts); only web_search, which runs at the model provider, stays
 * out of its sight, and createAgent refuses a before-tool hook while it is enabled.
 */
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import type {CodexOptions, Thread, ThreadEvent, ThreadOptions} from '@openai/codex-sdk';
import {AgentRunError, StratosError} from '../../../errors/index.ts';
import {resolveStratosHome} from '../../../internal/stratos-home.ts';
import {resolveMcpRequestTimeoutMs} from '../../../mcp/client/request-timeout.ts';
import type {
  AgentHarness,
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnOptions,
  HarnessTurnResult,
} from '../../harness.ts';
import type {HookFailure} from '../../harness-kit/hooks.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {
  type McpHookBridge,
  needsMcpHookBridge,
  startMcpHookBridge,
} from '../../harness-kit/mcp-hook-bridge.ts';
import {describeToolCall} from '../../harness-kit/tool-call.ts';
import {resolveCodexProvider} from './provider-setup.ts';
import {codexSdk} from './sdk.ts';
import {type CodexToolHook, startCodexToolHook} from './tool-hook.ts';
import {codexTools} from './tools.ts';

type CodexModule = typeof import('@openai/codex-sdk');

/**
 * The environment variable that carries the bridge's bearer token to Codex (not its command line, which other
 * users can read). Its name contains TOKEN, which Codex's default shell environment policy keeps out of the
 * commands the model runs.
 */
const bridgeTokenVariable = 'STRATOS_MCP_BRIDGE_TOKEN';

export const codexHarness: AgentHarness = {
  id: 'codex',
  continuesConversations: true,
  async createSession(options) {
    const sdk = await importHarnessSdk('codex', codexSdk, () => import('@openai/codex-sdk'));
    const launcherDirectory = await mkdtemp(join(tmpdir(), 'stratos-codex-'));
    let bridge: McpHookBridge | undefined;
    let toolHook: CodexToolHook | undefined;
    let isolatedHome: string | undefined;
    try {
      if (resolveCodexProvider(options.provider, options.env).isolateHome) {
        // Outside /tmp (docs/contributing/harness-facts.md), owned by this session, removed at close.
        const homes = join(resolveStratosHome(options.env), 'harness-homes');
        await mkdir(homes, {recursive: true, mode: 0o700});
        isolatedHome = await mkdtemp(join(homes, 'codex-'));
      }
      // The session exists before the bridge or the tool hook can report to it; failures are forwarded once both exist.
      let session: CodexSession | undefined;
      const beforeTool = options.hooks.beforeTool;
      if (beforeTool !== undefined) {
        toolHook = await startCodexToolHook({
          beforeTool,
          directory: launcherDirectory,
          emit: options.emit,
          onHookFailure: (failure) => session?.failTurn(failure),
        });
      }
      // Only Stratos's own hook command is configured (user configuration is ignored), so it needs no trust review.
      const hookTrust = toolHook === undefined ? '' : ' --dangerously-bypass-hook-trust';
      const launcher = join(launcherDirectory, 'codex');
      await writeFile(
        launcher,
        `#!/bin/sh\nsub="$1"; shift\nexec "${findCodexBinary()}" "$sub" --ignore-user-config${hookTrust} "$@"\n`,
      );
      await chmod(launcher, 0o700);
      if (needsMcpHookBridge(options.hooks, options.mcpServers)) {
        bridge = await startMcpHookBridge({
          harness: 'codex',
          hooks: options.hooks,
          servers: options.mcpServers,
          onHookFailure: (failure) => session?.failTurn(failure),
        });
      }
      session = new CodexSession(sdk, options, launcher, launcherDirectory, bridge, isolatedHome, toolHook);
      return session;
    } catch (error) {
      await bridge?.close();
      await toolHook?.close();
      await rm(launcherDirectory, {recursive: true, force: true});
      if (isolatedHome !== undefined) await rm(isolatedHome, {recursive: true, force: true});
      throw error;
    }
  },
};

class CodexSession implements HarnessSession {
  #sdk: CodexModule;
  #options: HarnessSessionOptions;
  #launcher: string;
  #launcherDirectory: string;
  /** CODEX_HOME of its own when the provider must not see the saved login (Azure). */
  #isolatedHome: string | undefined;
  #thread: Thread;
  #mcpJson: string;
  #closed = false;
  #running: AbortController | undefined;
  #bridge: McpHookBridge | undefined;
  /** Codex's native PreToolUse hook, when the agent has a before-tool hook. */
  #toolHook: CodexToolHook | undefined;
  /** The first control hook that threw during the running turn: the turn is aborted and fails with it. */
  #hookFailure: HookFailure | undefined;

  constructor(
    sdk: CodexModule,
    options: HarnessSessionOptions,
    launcher: string,
    launcherDirectory: string,
    bridge: McpHookBridge | undefined,
    isolatedHome: string | undefined,
    toolHook: CodexToolHook | undefined,
  ) {
    this.#toolHook = toolHook;
    this.#isolatedHome = isolatedHome;
    this.#sdk = sdk;
    this.#options = options;
    this.#launcher = launcher;
    this.#launcherDirectory = launcherDirectory;
    this.#bridge = bridge;
    this.#mcpJson = JSON.stringify(options.mcpServers);
    const codex = this.#codex(options.mcpServers);
    this.#thread =
      options.resumeConversation === undefined
        ? codex.startThread(this.#threadOptions())
        : codex.resumeThread(options.resumeConversation, this.#threadOptions());
  }

  conversationId(): string | undefined {
    return this.#thread.id ?? undefined;
  }

  /** A bridged control hook threw: stop the running turn; `run` rejects with the hook failure. */
  failTurn(failure: HookFailure): void {
    const running = this.#running;
    if (running === undefined || this.#hookFailure !== undefined) return;
    this.#hookFailure = failure;
    running.abort(failure);
  }

  #codex(mcpServers: readonly AgentMcpServer[]): InstanceType<CodexModule['Codex']> {
    const o = this.#options;
    const config: NonNullable<CodexOptions['config']> = {
      analytics: {enabled: false},
      features: {plugins: false, ...(o.tools.removed.includes('shell') ? {shell_tool: false} : {})},
      ...(o.tools.removed.includes('web_search') ? {web_search: 'disabled'} : {}),
      ...(o.tools.removed.includes('view_image') ? {tools: {view_image: false}} : {}),
      ...(o.systemPrompt === undefined ? {} : {developer_instructions: o.systemPrompt}),
      mcp_servers: this.#bridge === undefined ? toNativeServers(mcpServers) : toBridgedServers(this.#bridge),
      ...this.#toolHook?.config,
    };
    // The provider's own configuration and credentials (./provider-setup.ts); Azure gets a CODEX_HOME of its own,
    // so a saved ChatGPT login can never stand in for a failing Azure setup.
    const provider = resolveCodexProvider(o.provider, o.env);
    Object.assign(config, provider.config);
    const env =
      this.#isolatedHome === undefined ? provider.env : {...provider.env, CODEX_HOME: this.#isolatedHome};
    return new this.#sdk.Codex({
      codexPathOverride: this.#launcher,
      env: this.#bridge === undefined ? env : {...env, [bridgeTokenVariable]: this.#bridge.token},
      config,
      ...(provider.apiKey === undefined ? {} : {apiKey: provider.apiKey}),
    });
  }

  #threadOptions(): ThreadOptions {
    const o = this.#options;
    return {
      workingDirectory: o.workingDirectory,
      skipGitRepoCheck: true,
      approvalPolicy: 'never',
      sandboxMode: 'workspace-write',
      ...(o.model === undefined ? {} : {model: o.model}),
      ...(o.effort === undefined
        ? {}
        : {modelReasoningEffort: o.effort as NonNullable<ThreadOptions['modelReasoningEffort']>}),
    };
  }

  async run(prompt: string, options: HarnessTurnOptions): Promise<HarnessTurnResult> {
    if (this.#closed)
      throw new AgentRunError('the Codex conversation was closed; create a new agent to go on.', {
        agent: this.#options.agent,
        harness: 'codex',
      });
    const mcpJson = JSON.stringify(options.mcpServers);
    if (this.#bridge !== undefined) {
      // Codex keeps talking to the same bridge URLs; only the bridge's upstream connections change.
      await this.#bridge.update(options.mcpServers);
    } else if (mcpJson !== this.#mcpJson && this.#thread.id !== null) {
      // Credentials changed between requests: the next turn resumes the same thread with the new configuration.
      this.#thread = this.#codex(options.mcpServers).resumeThread(this.#thread.id, this.#threadOptions());
      this.#mcpJson = mcpJson;
    }
    const controller = new AbortController();
    this.#running = controller;
    this.#hookFailure = undefined;
    const onAbort = () => controller.abort(options.signal.reason);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, {once: true});
    try {
      const turnOptions = {
        signal: controller.signal,
        ...(this.#options.outputJsonSchema === undefined
          ? {}
          : {outputSchema: this.#options.outputJsonSchema}),
      };
      const {events} = await this.#thread.runStreamed(prompt, turnOptions);
      let text = '';
      let failure: string | undefined;
      for await (const event of events) {
        const outcome = this.#observe(event);
        if (outcome.text !== undefined) text = outcome.text;
        if (outcome.failure !== undefined) failure = outcome.failure;
      }
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      if (failure !== undefined)
        throw new AgentRunError(`Codex failed the turn: ${failure}`, {
          agent: this.#options.agent,
          harness: 'codex',
        });
      if (this.#options.outputJsonSchema === undefined) return {text};
      return parseStructured(text);
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (this.#hookFailure !== undefined) throw this.#hookFailure;
      throw toMcpStartupError(error, this.#options.agent) ?? error;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      this.#running = undefined;
    }
  }

  #observe(event: ThreadEvent): {text?: string; failure?: string} {
    const emit = this.#options.emit;
    switch (event.type) {
      case 'item.started':
      case 'item.completed': {
        const item = event.item;
        if (item.type === 'agent_message' && event.type === 'item.completed') {
          emit({type: 'text', text: item.text});
          return {text: item.text};
        }
        if (item.type === 'mcp_tool_call') {
          const call = describeToolCall(codexTools, `mcp__${item.server}__${item.tool}`, item.arguments, {
            server: item.server,
            tool: item.tool,
          });
          emit(
            event.type === 'item.started'
              ? {type: 'tool.start', id: item.id, call}
              : {
                  type: 'tool.end',
                  id: item.id,
                  call,
                  ok: item.status === 'completed',
                  ...(item.result == null ? {} : {result: mcpResult(item.result)}),
                  // Codex sends `error: null` for a call that did not fail.
                  ...(typeof item.error?.message === 'string' ? {error: item.error.message} : {}),
                },
          );
        }
        if (item.type === 'command_execution') {
          const call = describeToolCall(codexTools, 'shell', {command: item.command}, undefined);
          emit(
            event.type === 'item.started'
              ? {type: 'tool.start', id: item.id, call}
              : {
                  type: 'tool.end',
                  id: item.id,
                  call,
                  ok: item.status === 'completed',
                  result: {output: item.aggregated_output, exitCode: item.exit_code},
                  ...(item.status === 'completed' || item.exit_code === undefined
                    ? {}
                    : {error: `The command exited with code ${item.exit_code}.`}),
                },
          );
        }
        return {};
      }
      case 'turn.completed':
        // Codex reports usage for the whole turn only, not per model call: no model-call boundaries are invented.
        emit({
          type: 'usage',
          inputTokens: event.usage.input_tokens,
          outputTokens: event.usage.output_tokens,
          ...(typeof event.usage.cached_input_tokens === 'number'
            ? {cacheReadInputTokens: event.usage.cached_input_tokens}
            : {}),
          ...(typeof event.usage.cache_write_input_tokens === 'number'
            ? {cacheCreationInputTokens: event.usage.cache_write_input_tokens}
            : {}),
        });
        return {};
      case 'turn.failed':
        return {failure: event.error.message};
      case 'error':
        return {failure: event.message};
      default:
        return {};
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#running?.abort(
      new AgentRunError('the Codex conversation was closed while a turn ran.', {
        agent: this.#options.agent,
        harness: 'codex',
        cancelled: true,
      }),
    );
    await this.#bridge?.close();
    await this.#toolHook?.close();
    await rm(this.#launcherDirectory, {recursive: true, force: true});
    if (this.#isolatedHome !== undefined) await rm(this.#isolatedHome, {recursive: true, force: true});
  }
}

/**
 * A required MCP server that did not start fails Codex's thread before any model request; its message names the
 * server and the reason (`required MCP servers failed to initialize: counter: timed out handshaking ...`).
 */
function toMcpStartupError(error: unknown, agent: string): StratosError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const match = /required MCP servers failed to initialize: ([^\n]*)/.exec(message);
  if (match === null) return undefined;
  const reason = match[1]!.trim();
  const server = /^([^:]+):/.exec(reason)?.[1];
  return new StratosError(
    'STRATOS_MCP_CONNECT_FAILED',
    `Agent '${agent}' (codex) could not start its MCP server${server === undefined ? '' : ` '${server}'`}: ${reason}. Nothing was sent to a model. Check that the server's command or URL in mcp.servers of workflow.yaml works on its own.`,
    {cause: error, details: {agent, harness: 'codex', ...(server === undefined ? {} : {server})}},
  );
}

/** An MCP tool's result as Codex reports it, in the shape a direct MCP call records (`structuredContent`). */
function mcpResult(result: {content: unknown; structured_content: unknown}): Record<string, unknown> {
  return result.structured_content == null
    ? {content: result.content}
    : {content: result.content, structuredContent: result.structured_content};
}

/** With an output schema Codex answers with JSON text in strict `text.format`; prose is not a result. */
function parseStructured(text: string): HarnessTurnResult {
  try {
    return {text, structured: {value: JSON.parse(text)}};
  } catch {
    return {text};
  }
}

type CodexConfigObject = NonNullable<CodexOptions['config']>;

/**
 * What every selected server gets. Codex treats MCP servers as optional by default: a server that has not
 * finished starting within a short grace period (about a second) is left out of the turn, and the model is then
 * offered no tools from it, which happens on any loaded machine. The selection is part of the agent's contract,
 * so each server is `required`: Codex waits for it (up to Stratos's MCP request limit) and fails the turn with the
 * server's name when it cannot start, instead of silently running without it.
 */
function serverPolicy(): CodexConfigObject {
  return {
    default_tools_approval_mode: 'approve',
    required: true,
    startup_timeout_ms: resolveMcpRequestTimeoutMs(),
  };
}

function toNativeServers(servers: readonly AgentMcpServer[]): CodexConfigObject {
  const native: CodexConfigObject = {};
  for (const server of servers) {
    native[server.name] =
      server.type === 'http'
        ? {url: server.url, http_headers: server.headers, ...serverPolicy()}
        : {
            command: server.command,
            args: server.args,
            env: server.env,
            ...(server.cwd === undefined ? {} : {cwd: server.cwd}),
            ...serverPolicy(),
          };
  }
  return native;
}

/** Each selected server as its bridge endpoint; the bearer token reaches Codex through its environment. */
function toBridgedServers(bridge: McpHookBridge): CodexConfigObject {
  const native: CodexConfigObject = {};
  for (const endpoint of bridge.endpoints) {
    native[endpoint.name] = {
      url: endpoint.url,
      bearer_token_env_var: bridgeTokenVariable,
      ...serverPolicy(),
    };
  }
  return native;
}

const platformPackages: Record<string, string> = {
  'linux-x64': '@openai/codex-linux-x64',
  'linux-arm64': '@openai/codex-linux-arm64',
  'darwin-x64': '@openai/codex-darwin-x64',
  'darwin-arm64': '@openai/codex-darwin-arm64',
};
const targets: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The native codex binary, found the way @openai/codex-sdk finds it (through @openai/codex). */
function findCodexBinary(): string {
  const key = `${process.platform}-${process.arch}`;
  const platformPackage = platformPackages[key];
  if (platformPackage === undefined)
    throw new StratosError(
      'STRATOS_AGENT_HARNESS_MISSING',
      `Codex has no binary for ${key}; it runs on ${Object.keys(platformPackages).join(', ')}. Use another harness on this machine.`,
      {details: {harness: 'codex', platform: key}},
    );
  const sdkRequire = createRequire(import.meta.resolve('@openai/codex-sdk'));
  const codexPackage = sdkRequire.resolve('@openai/codex/package.json');
  const codexRequire = createRequire(codexPackage);
  const platformJson = codexRequire.resolve(`${platformPackage}/package.json`);
  return join(dirname(platformJson), 'vendor', targets[key]!, 'bin', 'codex');
}
