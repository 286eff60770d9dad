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
 */
import {randomBytes, timingSafeEqual} from 'node:crypto';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {CallToolResult, McpHttpHandler, Tool} from '@modelcontextprotocol/server';
import {McpClientSession} from '../../mcp/client/open-client.ts';
import {resolveMcpRequestTimeoutMs} from '../../mcp/client/request-timeout.ts';
import type {McpTransportSpec} from '../../mcp/client/resolve-transport.ts';
import type {AgentMcpServer} from '../harness.ts';
import type {HarnessId} from '../settings.ts';
import {type AgentHooks, HookFailure, type ToolCall} from './hooks.ts';
import {describeToolCall} from './tool-call.ts';

export interface McpHookBridgeOptions {
  /** The harness whose session the bridge serves. */
  harness: HarnessId;
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
  const token = randomBytes(32).toString('base64url');
  const upstreams = new Map<string, Upstream>();
  const handlers = new Map<string, McpHttpHandler>();
  const timeoutMs = resolveMcpRequestTimeoutMs();
  for (const server of options.servers) upstreams.set(server.name, new Upstream(server, timeoutMs));

  const relay = new HookRelay(options);
  for (const name of upstreams.keys()) {
    handlers.set(
      name,
      sdk.createMcpHandler(() => {
        const server = new sdk.Server(
          {name: `stratos-hook-bridge/${name}`, version: '1'},
          {capabilities: {tools: {}}},
        );
        server.setRequestHandler('tools/list', async () => ({
          tools: await upstreams.get(name)!.listTools(),
        }));
        server.setRequestHandler('tools/call', async (request, context) => {
          const upstream = upstreams.get(name)!;
          const result = await relay.call(
            upstream,
            request.params.name,
            request.params.arguments ?? {},
            context.mcpReq.signal,
          );
          const advertised = upstream.advertised(request.params.name)?.outputSchema as
            | Record<string, unknown>
            | undefined;
          return result.structuredContent === undefined
            ? result
            : server.projectCallToolResult(result, advertised);
        });
        return server;
      }),
    );
  }

  const route = async (request: Request, path: string, parsedBody: unknown): Promise<Response> => {
    const rejected = sdk.hostHeaderValidationResponse(request, sdk.localhostAllowedHostnames());
    if (rejected !== undefined) return rejected;
    if (!authorized(request.headers.get('authorization'), token)) {
      return new Response('Unauthorized', {status: 401, headers: {'www-authenticate': 'Bearer'}});
    }
    const name = serverOfPath(path);
    const handler = name === undefined ? undefined : handlers.get(name);
    if (handler === undefined) return new Response('Not found', {status: 404});
    return handler.fetch(request, parsedBody === undefined ? {} : {parsedBody});
  };

  const http = createServer((req, res) => {
    serveNodeRequest(req, res, route).catch(() => {
      if (!res.headersSent) res.writeHead(500, {'content-type': 'text/plain'}).end('Internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const {port} = http.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    token,
    endpoints: [...upstreams.keys()].map((name) => ({
      name,
      url: `http://127.0.0.1:${port}/mcp/${encodeURIComponent(name)}`,
    })),
    async update(servers) {
      for (const server of servers) await upstreams.get(server.name)?.update(server);
    },
    close() {
      closed ??= (async () => {
        relay.close();
        http.closeAllConnections();
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        await Promise.allSettled([
          ...[...handlers.values()].map((handler) => handler.close()),
          ...[...upstreams.values()].map((upstream) => upstream.close()),
        ]);
        http.closeAllConnections();
        await stopped;
      })();
      return closed;
    },
  };
}

/** Runs the control hooks around each forwarded call. */
class HookRelay {
  readonly #options: McpHookBridgeOptions;
  #closed = false;

  constructor(options: McpHookBridgeOptions) {
    this.#options = options;
  }

  close(): void {
    this.#closed = true;
  }

  async call(
    upstream: Upstream,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    if (this.#closed) return errorResult('The agent session that owned this MCP connection has ended.');
    const {hooks} = this.#options;
    const server = upstream.name;
    // Only MCP tools pass through the bridge, and no tool table gives an MCP tool a canonical name.
    const call = describeToolCall({canonical: {}}, `mcp__${server}__${tool}`, args, {server, tool});
    let input = call.input;
    if (hooks.beforeTool !== undefined) {
      const decision = await this.#control('beforeTool', () => hooks.beforeTool!(call));
      if (decision instanceof HookFailure) return hookFailedResult(decision);
      if (decision?.action === 'deny') return errorResult(decision.feedback);
      if (decision?.action === 'modify') input = {...decision.input};
    }
    let result: CallToolResult;
    try {
      result = await upstream.callTool(tool, input, signal);
    } catch (error) {
      return errorResult(`The MCP tool '${tool}' of server '${server}' failed: ${messageOf(error)}`);
    }
    if (hooks.afterTool === undefined) return result;
    const after: ToolCall & {result: unknown} = {...call, input, result};
    const decision = await this.#control('afterTool', () => hooks.afterTool!(after));
    if (decision instanceof HookFailure) return hookFailedResult(decision);
    if (decision?.action === 'withhold') return withheldResult(decision.feedback);
    return result;
  }

  /** A throwing hook is reported to the owner (which fails the execution) and answered with an error result. */
  async #control<T>(hook: string, fn: () => T | Promise<T>): Promise<T | HookFailure> {
    try {
      return await fn();
    } catch (error) {
      const failure = new HookFailure(hook, error);
      this.#options.onHookFailure(failure);
      return failure;
    }
  }
}

/** One real server behind the bridge: connected on first use, reconnected when its configuration changes. */
class Upstream {
  readonly name: string;
  readonly #timeoutMs: number;
  #server: AgentMcpServer;
  #json: string;
  #session: Promise<McpClientSession> | undefined;
  #tools = new Map<string, Tool>();

  constructor(server: AgentMcpServer, timeoutMs: number) {
    this.name = server.name;
    this.#server = server;
    this.#json = JSON.stringify(server);
    this.#timeoutMs = timeoutMs;
  }

  async listTools(): Promise<Tool[]> {
    const session = await this.#open();
    const {tools} = await session.client.listTools(undefined, {
      timeout: this.#timeoutMs,
      signal: session.closingSignal,
    });
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  advertised(tool: string): Tool | undefined {
    return this.#tools.get(tool);
  }

  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const session = await this.#open();
    return (await session.client.callTool(
      {name: tool, arguments: args},
      {timeout: this.#timeoutMs, signal: AbortSignal.any([signal, session.closingSignal])},
    )) as CallToolResult;
  }

  async update(server: AgentMcpServer): Promise<void> {
    const json = JSON.stringify(server);
    if (json === this.#json) return;
    const previous = this.#session;
    this.#server = server;
    this.#json = json;
    this.#session = undefined;
    await previous?.then((session) => session.close()).catch(() => {});
  }

  async close(): Promise<void> {
    const previous = this.#session;
    this.#session = undefined;
    await previous?.then((session) => session.close()).catch(() => {});
  }

  #open(): Promise<McpClientSession> {
    if (this.#session !== undefined) return this.#session;
    const spec = toTransportSpec(this.#server);
    const session = new McpClientSession({
      server: this.name,
      spec,
      timeoutMs: this.#timeoutMs,
      identity: JSON.stringify(
        spec.kind === 'http' ? ['http', spec.url] : ['stdio', spec.command, spec.args, spec.cwd],
      ),
    });
    const opening = session.open().then(
      () => session,
      async (error: unknown) => {
        await session.close();
        if (this.#session === opening) this.#session = undefined;
        throw error;
      },
    );
    this.#session = opening;
    return opening;
  }
}

function toTransportSpec(server: AgentMcpServer): McpTransportSpec {
  return server.type === 'http'
    ? {kind: 'http', url: server.url, headers: server.headers}
    : {kind: 'stdio', command: server.command, args: server.args, env: server.env, cwd: server.cwd ?? '.'};
}

function errorResult(text: string): CallToolResult {
  return {content: [{type: 'text', text}], isError: true};
}

/**
 * What the harness receives in place of a withheld result: the feedback as an error result. A successful result of a
 * tool that declares an output schema must carry `structuredContent` conforming to it (MCP clients such as OpenCode's
 * reject one without, error -32600), which feedback text cannot; an error result is valid for every tool.
 */
function withheldResult(feedback: string): CallToolResult {
  return errorResult(feedback);
}

function hookFailedResult(failure: HookFailure): CallToolResult {
  return errorResult(`${failure.message} The execution is stopping.`);
}

function authorized(header: string | null, token: string): boolean {
  if (header === null || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
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

/** node:http to the SDK's web-standard handler and back (streamed responses included). */
async function serveNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  route: (request: Request, path: string, parsedBody: unknown) => Promise<Response>,
): Promise<void> {
  const disconnected = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) disconnected.abort(new Error('client disconnected'));
  });
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const target = req.url ?? '/';
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${target}`, {
    method,
    headers,
    ...(body === undefined ? {} : {body: new Uint8Array(body)}),
    signal: disconnected.signal,
  });
  const response = await route(request, target.split('?')[0]!, parseJson(body));
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    const existing = out[key];
    out[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  });
  res.writeHead(response.status, out);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.on('close', cancel);
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', cancel);
  }
}

function parseJson(body: Buffer | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
