/**
 * Each harness's project-level MCP settings, planted in an agent's working directory in the shape its real binary
 * reads: Claude Code's `.mcp.json` (with `.claude/settings.json` approving every project server), OpenCode's
 * `opencode.json`, Codex's `.codex/config.toml`. Stratos must keep all of them out of a workflow's agents.
 */
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';

export interface PlantedServer {
  command: string;
  args: string[];
}

export async function plantClaudeProjectConfig(directory: string, server: PlantedServer): Promise<void> {
  await writeFile(
    join(directory, '.mcp.json'),
    JSON.stringify({mcpServers: {projectmcp: {type: 'stdio', ...server}}}),
  );
  await mkdir(join(directory, '.claude'), {recursive: true});
  await writeFile(
    join(directory, '.claude', 'settings.json'),
    JSON.stringify({enableAllProjectMcpServers: true, enabledMcpjsonServers: ['projectmcp']}),
  );
}

export async function plantOpenCodeProjectConfig(directory: string, server: PlantedServer): Promise<void> {
  await writeFile(
    join(directory, 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      mcp: {projectmcp: {type: 'local', command: [server.command, ...server.args], enabled: true}},
    }),
  );
}

export async function plantCodexProjectConfig(directory: string, server: PlantedServer): Promise<void> {
  await mkdir(join(directory, '.codex'), {recursive: true});
  await writeFile(
    join(directory, '.codex', 'config.toml'),
    `[mcp_servers.projectmcp]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\n`,
  );
}
