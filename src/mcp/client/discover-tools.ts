/**
 * Build-time tool discovery: connect with the current configuration and authentication, list every tool (all
 * pages), close. Discovery never calls a tool. The verdict its connect reached is remembered for later connects.
 */
import {StratosError} from '../../errors/index.ts';
import {describeError} from '../../internal/describe-error.ts';
import type {McpServerConfig} from '../../manifest/index.ts';
import type {McpToolSnapshot} from '../codegen/index.ts';
import {limitOf, messageLimitError} from './message-limits.ts';
import {type McpNegotiationVerdict, rememberVerdict} from './negotiation-verdict.ts';
import {McpClientSession} from './open-client.ts';
import {resolveMcpConnectTimeoutMs, resolveMcpRequestTimeoutMs} from './request-timeout.ts';
import {resolveMcpTransport, transportIdentity} from './resolve-transport.ts';

export interface DiscoverMcpToolsOptions {
  server: string;
  config: McpServerConfig;
  workflow: string;
  directory: string;
  env?: NodeJS.ProcessEnv;
  /** Notices for the person at the terminal, such as a sign-in URL. */
  onNotice?: (message: string) => void;
  /** Cancels connecting and listing (a cancelled build). */
  signal?: AbortSignal;
}

export interface DiscoveredMcpTools {
  tools: McpToolSnapshot[];
  verdict: McpNegotiationVerdict | undefined;
}

/**
 * Lists the tools a server shows this user now.
 *
 * @throws StratosError `STRATOS_CONFIG_*`, `STRATOS_MCP_CONNECT_FAILED`, `STRATOS_MCP_REQUEST_TIMEOUT`,
 *   `STRATOS_MCP_DISCOVERY_FAILED`; AuthenticationError (`STRATOS_AUTH_*`, `STRATOS_CREDENTIALS_*`) for an OAuth
 *   server.
 */
export async function discoverMcpTools(options: DiscoverMcpToolsOptions): Promise<DiscoveredMcpTools> {
  const timeoutMs = resolveMcpRequestTimeoutMs(options.env);
  const spec = await resolveMcpTransport(options.config, {
    server: options.server,
    workflow: options.workflow,
    directory: options.directory,
    ...(options.env === undefined ? {} : {env: options.env}),
    ...(options.onNotice === undefined ? {} : {onNotice: options.onNotice}),
  });
  const session = new McpClientSession({
    server: options.server,
    spec,
    timeoutMs: resolveMcpConnectTimeoutMs(options.env),
    identity: transportIdentity(options.config, options.directory),
    ...(options.signal === undefined ? {} : {signal: options.signal}),
  });
  try {
    await session.open();
    let listed: Awaited<ReturnType<typeof session.client.listTools>>;
    try {
      listed = await session.client.listTools(undefined, {
        timeout: timeoutMs,
        cacheMode: 'bypass',
        ...(options.signal === undefined ? {} : {signal: options.signal}),
      });
    } catch (error) {
      if (options.signal?.aborted === true) throw options.signal.reason;
      const limit = limitOf(error) ?? session.takeLimitFailure()?.limit;
      if (limit !== undefined) {
        throw messageLimitError(limit, {server: options.server, request: 'tools/list'}, error);
      }
      throw new StratosError(
        'STRATOS_MCP_DISCOVERY_FAILED',
        `Listing the tools of the MCP server '${options.server}' failed: ${describeError(error)}`,
        {cause: error, details: {server: options.server}},
      );
    }
    const tools = listed.tools.map((tool) => {
      const snapshot: McpToolSnapshot = {
        name: tool.name,
        inputSchema: tool.inputSchema as McpToolSnapshot['inputSchema'],
      };
      if (tool.title !== undefined) snapshot.title = tool.title;
      if (tool.description !== undefined) snapshot.description = tool.description;
      if (tool.outputSchema !== undefined)
        snapshot.outputSchema = tool.outputSchema as McpToolSnapshot['outputSchema'] & object;
      return snapshot;
    });
    const verdict = session.verdict;
    if (verdict !== undefined) await rememberVerdict(options.directory, options.server, verdict);
    return {tools, verdict};
  } finally {
    await session.close();
  }
}
