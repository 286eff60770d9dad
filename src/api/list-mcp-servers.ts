import type {Diagnostic} from '../errors/index.ts';
import {discover, type HostOptions, resolveHost} from './host.ts';

/** One MCP server of one discovered workflow. Never carries header, environment or secret values. */
export interface McpServerSummary {
  /** The `mcp.servers` key. */
  name: string;
  workflow: string;
  /** The workflow folder. */
  directory: string;
  transport: 'http' | 'stdio';
  /** HTTP: the endpoint URL. */
  url?: string;
  /** Stdio: the command (its arguments and environment are not listed). */
  command?: string;
  /** `oauth` for servers with Stratos-managed sign-in, else `none` (configured headers are not shown). */
  auth: 'oauth' | 'none';
  /** Names (never values) of configured headers or environment variables. */
  settings: string[];
}

export interface ListMcpServersResult {
  servers: McpServerSummary[];
  problems: Diagnostic[];
}

/** Every MCP server declared by a discovered workflow, sorted by workflow then server. Connects to nothing. */
export async function listMcpServers(options: HostOptions = {}): Promise<ListMcpServersResult> {
  const discovery = await discover(resolveHost(options));
  const servers: McpServerSummary[] = [];
  const problems = [...discovery.problems];
  for (const handle of discovery.workflows) {
    problems.push(...handle.diagnostics.filter((d) => d.severity === 'error'));
    for (const [name, config] of Object.entries(handle.manifest?.mcp?.servers ?? {})) {
      servers.push(
        config.type === 'http'
          ? {
              name,
              workflow: handle.name,
              directory: handle.directory,
              transport: 'http',
              url: config.url,
              auth: config.auth === undefined ? 'none' : 'oauth',
              settings: Object.keys(config.headers ?? {}),
            }
          : {
              name,
              workflow: handle.name,
              directory: handle.directory,
              transport: 'stdio',
              command: config.command,
              auth: 'none',
              settings: Object.keys(config.env ?? {}),
            },
      );
    }
  }
  servers.sort((a, b) =>
    a.workflow === b.workflow ? (a.name < b.name ? -1 : 1) : a.workflow < b.workflow ? -1 : 1,
  );
  return {servers, problems};
}
