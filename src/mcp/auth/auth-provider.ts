/**
 * The authentication seam of direct MCP connections: a connection asks its server's provider for request headers
 * just before it connects. Servers without `auth` need no provider (their configured headers are sent as they
 * are). OAuth sign-in and the credential store replace {@link resolveMcpAuthProvider}'s OAuth branch.
 */
import {StratosError} from '../../errors/index.ts';
import type {HttpMcpServerConfig} from '../../manifest/index.ts';

/** Supplies the authentication headers of one HTTP MCP server, such as `Authorization: Bearer <token>`. */
export interface McpAuthProvider {
  /** Headers to add to every request of the connection; values are secrets and are never logged. */
  headers(): Promise<Record<string, string>>;
}

export interface McpAuthContext {
  /** The `mcp.servers` key. */
  server: string;
  /** The workflow whose manifest declares the server, for messages. */
  workflow: string;
}

/**
 * The provider for an HTTP server's `auth` setting, or undefined when it has none.
 *
 * @throws StratosError `STRATOS_MCP_AUTH_FAILED` for `auth: {type: oauth}` until OAuth sign-in is implemented.
 */
export function resolveMcpAuthProvider(
  config: HttpMcpServerConfig,
  context: McpAuthContext,
): McpAuthProvider | undefined {
  if (config.auth === undefined) return undefined;
  throw new StratosError(
    'STRATOS_MCP_AUTH_FAILED',
    `The MCP server '${context.server}' of workflow '${context.workflow}' uses auth: {type: oauth}, but OAuth sign-in is not implemented yet. ` +
      'Use headers with an {env:NAME} or {file:path} token reference for now.',
    {details: {server: context.server, workflow: context.workflow}},
  );
}
