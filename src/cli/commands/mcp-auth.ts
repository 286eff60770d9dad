import {loginMcpServer, logoutMcpServer} from '../../api/mcp-auth.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler, ParsedCommand} from './command.ts';

/** `stratos mcp login --name <server> [--workflow <name>]`: browser sign-in, credentials stored for later runs. */
export const mcpLoginCommand: CommandHandler = async (command, context) => {
  const server = requireServer(command, 'login');
  const workflow = optionalString(command.values.workflow);
  const result = await loginMcpServer(server, {
    cwd: context.cwd,
    env: context.env,
    workflow,
    signal: context.signal,
    onNotice: context.notice,
  });
  const expiry =
    result.expiresAt === undefined ? 'no expiry given' : `access token valid until ${result.expiresAt}`;
  const done =
    result.grant === 'client_credentials'
      ? `Fetched a client-credentials token for MCP server '${server}'`
      : `Signed in to MCP server '${server}'`;
  return {
    ok: true,
    message: done,
    data: result,
    warnings: [],
    human: `${done} (${result.serverUrl}) of workflow '${result.workflow}'; ${expiry}.\n`,
  };
};

/** `stratos mcp logout --name <server> [--workflow <name>]`: local removal only, no remote revocation. */
export const mcpLogoutCommand: CommandHandler = async (command, context) => {
  const server = requireServer(command, 'logout');
  const workflow = optionalString(command.values.workflow);
  const result = await logoutMcpServer(server, {cwd: context.cwd, env: context.env, workflow});
  const note =
    'This removed the credentials stored on this machine only; it did not revoke tokens at the authorization server (revoke access there if needed).';
  const what =
    result.removed.length === 0
      ? `No stored credentials for MCP server '${server}' (${result.serverUrl}).`
      : `Removed the stored credentials of MCP server '${server}' (${result.serverUrl}).`;
  return {
    ok: true,
    message:
      result.removed.length === 0
        ? `No credentials stored for '${server}'`
        : `Signed out of '${server}' locally`,
    data: {...result, revoked: false},
    warnings: [],
    human: `${what}\n${note}\n`,
  };
};

function requireServer(command: ParsedCommand, verb: string): string {
  const name = command.values.name;
  if (typeof name === 'string' && name !== '') return name;
  throw new StratosError(
    'STRATOS_CLI_USAGE',
    `stratos mcp ${verb} needs the MCP server name: stratos mcp ${verb} --name <server> (see 'stratos mcp list').`,
  );
}

function optionalString(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
