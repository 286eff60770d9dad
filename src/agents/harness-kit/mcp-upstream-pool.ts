/**
 * The real MCP servers behind the MCP hook bridge, one client each through Stratos's own MCP client: connected on
 * first use, reconnected when a server's configuration changes (credentials refreshed between requests), all
 * closed with the bridge.
 */
import type {CallToolResult, Tool} from '@modelcontextprotocol/server';
import {McpClientSession} from '../../mcp/client/open-client.ts';
import type {McpTransportSpec} from '../../mcp/client/resolve-transport.ts';
import type {AgentMcpServer} from '../harness.ts';

/** The upstream clients of one bridge, by server name. */
export class McpUpstreamPool {
  readonly #upstreams = new Map<string, McpUpstream>();

  constructor(servers: readonly AgentMcpServer[], timeoutMs: number) {
    for (const server of servers) this.#upstreams.set(server.name, new McpUpstream(server, timeoutMs));
  }

  /** The server names, in selection order. */
  names(): string[] {
    return [...this.#upstreams.keys()];
  }

  get(name: string): McpUpstream | undefined {
    return this.#upstreams.get(name);
  }

  /** Takes the servers' current configuration; a changed server reconnects on its next use. */
  async update(servers: readonly AgentMcpServer[]): Promise<void> {
    for (const server of servers) await this.#upstreams.get(server.name)?.update(server);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#upstreams.values()].map((upstream) => upstream.close()));
  }
}

/** One real server behind the bridge. */
export class McpUpstream {
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

  /** The tool as the server last listed it. */
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
