/**
 * The agent's selected MCP servers as ACP `mcpServers` of `session/new` (and `session/load`). Stdio servers are
 * part of the protocol's baseline; HTTP servers only where the agent advertises `mcpCapabilities.http`: otherwise
 * the session is refused before it starts rather than silently left without the server.
 */
import {StratosError} from '../../../errors/stratos-error.ts';
import type {AgentMcpServer} from '../../harness.ts';

/** One ACP `McpServer` (stdio or HTTP), as the protocol writes it. */
export type AcpMcpServer =
  | {name: string; command: string; args: string[]; env: {name: string; value: string}[]}
  | {type: 'http'; name: string; url: string; headers: {name: string; value: string}[]};

/**
 * @throws StratosError STRATOS_AGENT_INIT_FAILED when an HTTP server is selected and the agent does not advertise
 *   HTTP MCP support.
 */
export function toAcpMcpServers(
  servers: readonly AgentMcpServer[],
  capabilities: {http?: boolean} | undefined,
  agent: string,
  command: string,
): AcpMcpServer[] {
  return servers.map((server) => {
    if (server.type === 'stdio')
      return {
        name: server.name,
        // ACP has no working directory for a stdio server: the shell changes to it first.
        ...(server.cwd === undefined
          ? {command: server.command, args: server.args}
          : {
              command: '/bin/sh',
              args: ['-c', 'cd "$0" && exec "$@"', server.cwd, server.command, ...server.args],
            }),
        env: pairs(server.env),
      };
    if (capabilities?.http !== true)
      throw new StratosError(
        'STRATOS_AGENT_INIT_FAILED',
        `Agent '${agent}' selects the HTTP MCP server '${server.name}', but its ACP agent (${command}) does not advertise HTTP MCP support (mcpCapabilities.http). Remove '${server.name}' from allowedMcps, or run the server over stdio.`,
        {details: {agent, harness: 'acp', server: server.name}},
      );
    return {type: 'http', name: server.name, url: server.url, headers: pairs(server.headers)};
  });
}

function pairs(values: Readonly<Record<string, string>>): {name: string; value: string}[] {
  return Object.entries(values).map(([name, value]) => ({name, value}));
}
