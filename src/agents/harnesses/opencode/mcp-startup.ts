/**
 * OpenCode starts its configured MCP servers when the session's instance first loads and, on its own, goes on
 * without one that failed (the model is then offered no tools from it). The selection is part of the agent's
 * contract, so before each prompt the adapter asks OpenCode for every server's status (`GET /mcp`, which waits
 * until each has connected or failed, up to the server's `timeout`) and stops with the names of those that failed.
 */
import {StratosError} from '../../../errors/index.ts';

type McpStatus = {status: string; error?: string};

/** The part of the OpenCode client this check uses. */
export interface OpenCodeMcpStatusClient {
  mcp: {
    status(): Promise<{data?: Record<string, McpStatus> | undefined; error?: unknown}>;
  };
}

/**
 * @throws StratosError `STRATOS_MCP_CONNECT_FAILED` naming every selected server OpenCode could not start; nothing
 *   was sent to a model.
 */
export async function checkOpenCodeMcpStartup(
  client: OpenCodeMcpStatusClient,
  agent: string,
  selected: readonly string[],
): Promise<void> {
  if (selected.length === 0) return;
  const response = await client.mcp.status();
  const statuses = response.data ?? {};
  const failed = selected.flatMap((name) => {
    const status = statuses[name];
    return status !== undefined && status.status !== 'connected' && status.status !== 'disabled'
      ? [{name, reason: status.error ?? status.status}]
      : [];
  });
  if (failed.length === 0) return;
  const names = failed.map((f) => `'${f.name}'`).join(', ');
  const reasons = failed.map((f) => `${f.name}: ${f.reason}`).join('; ');
  throw new StratosError(
    'STRATOS_MCP_CONNECT_FAILED',
    `Agent '${agent}' (opencode) could not start its MCP server${failed.length > 1 ? 's' : ''} ${names} (${reasons}). Nothing was sent to a model. Check that the server's command or URL in mcp.servers of workflow.yaml works on its own.`,
    {details: {agent, harness: 'opencode', servers: failed.map((f) => f.name)}},
  );
}
