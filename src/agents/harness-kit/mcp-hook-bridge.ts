/**
 * The in-process MCP hook bridge (design philosophy, "Hooks control work; events describe it"): for a harness
 * without a native tool-hook API (Codex), Stratos serves each selected MCP server itself, on 127.0.0.1, and the
 * harness talks to the bridge instead of the real server. The bridge answers `tools/list` with the real server's
 * tools (names and schemas unchanged) and runs the before-tool hook, the real call and the after-tool hook for
 * each `tools/call`. Upstream connections use Stratos's own MCP client.
 *
 * One bridge belongs to one agent session: one HTTP listener on a free port, one path per server, a random bearer
 * token that only the harness process receives (never logged). `close()` ends the listener and every upstream
 * client. Only MCP tools pass through the bridge; built-in harness tools are not seen here.
 *
 * The parts: the listener (`loopback-listener.ts`, node:http bridged by `internal/serve-node-request.ts`), one MCP
 * server per real server (`bridge-mcp-server.ts`), the hooks around each call (`bridge-tool-call.ts`) and the
 * upstream clients (`mcp-upstream-pool.ts`).
 */
import type {McpHttpHandler} from '@modelcontextprotocol/server';
import {readRequestPath, serveNodeRequest} from '../../internal/serve-node-request.ts';
import {resolveMcpRequestTimeoutMs} from '../../mcp/client/request-timeout.ts';
import type {AgentMcpServer} from '../harness.ts';
import {createBridgeMcpHandler} from './bridge-mcp-server.ts';
import {BridgeToolCalls} from './bridge-tool-call.ts';
import type {AgentHooks, HookFailure} from './hooks.ts';
import {startLoopbackListener} from './loopback-listener.ts';
import {McpUpstreamPool} from './mcp-upstream-pool.ts';

export interface McpHookBridgeOptions {
  hooks: AgentHooks;
  /** The selected servers with references and auth headers resolved: the real upstream endpoints. */
  servers: readonly AgentMcpServer[];
  /** Called once per failing control hook; the owner fails the running execution with it. */
  onHookFailure: (failure: HookFailure) => void;
}

/** What the harness is given in place of one real server. */
export interface McpHookBridgeEndpoint {
  name: string;
  url: string;
}

export interface McpHookBridge {
  /** The bearer token the harness must send (`Authorization: Bearer <token>`). Secret: never log it. */
  readonly token: string;
  readonly endpoints: readonly McpHookBridgeEndpoint[];
  /** Replaces the upstream configuration (credentials refreshed between requests); changed servers reconnect. */
  update(servers: readonly AgentMcpServer[]): Promise<void>;
  /** Closes the listener and every upstream client. Idempotent. */
  close(): Promise<void>;
}

/** Whether an agent needs the bridge: it has a tool control hook and at least one selected MCP server. */
export function needsMcpHookBridge(hooks: AgentHooks, servers: readonly AgentMcpServer[]): boolean {
  return (hooks.beforeTool !== undefined || hooks.afterTool !== undefined) && servers.length > 0;
}

/** Starts the bridge on 127.0.0.1 (a free port) and resolves once it listens. */
export async function startMcpHookBridge(options: McpHookBridgeOptions): Promise<McpHookBridge> {
  const sdk = await import('@modelcontextprotocol/server');
  const upstreams = new McpUpstreamPool(options.servers, resolveMcpRequestTimeoutMs());
  const calls = new BridgeToolCalls(options.hooks, options.onHookFailure);
  const handlers = new Map<string, McpHttpHandler>();
  for (const name of upstreams.names())
    handlers.set(name, createBridgeMcpHandler(sdk, upstreams.get(name)!, calls));
  const route = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const rejected = sdk.hostHeaderValidationResponse(request, sdk.localhostAllowedHostnames());
    if (rejected !== undefined) return rejected;
    const name = serverOfPath(readRequestPath(request));
    const handler = name === undefined ? undefined : handlers.get(name);
    if (handler === undefined) return new Response('Not found', {status: 404});
    return handler.fetch(request, parsedBody === undefined ? {} : {parsedBody});
  };
  const listener = await startLoopbackListener((req, res) => serveNodeRequest(req, res, route));
  let closed: Promise<void> | undefined;
  return {
    token: listener.token,
    endpoints: upstreams.names().map((name) => ({
      name,
      url: `${listener.origin}/mcp/${encodeURIComponent(name)}`,
    })),
    update: (servers) => upstreams.update(servers),
    close() {
      closed ??= (async () => {
        calls.close();
        const stopped = listener.close();
        await Promise.allSettled([
          ...[...handlers.values()].map((handler) => handler.close()),
          upstreams.close(),
        ]);
        await stopped;
      })();
      return closed;
    },
  };
}

function serverOfPath(path: string): string | undefined {
  const match = /^\/mcp\/([^/]+)$/.exec(path);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}
