import {listMcpServers} from '../../api/list-mcp-servers.ts';
import {formatDiagnostic} from '../output/format-diagnostic.ts';
import type {CommandHandler} from './command.ts';

/** `stratos mcp list`: servers of every discovered workflow with workflow and transport, never a secret. */
export const mcpListCommand: CommandHandler = async (_command, context) => {
  const {servers, problems} = await listMcpServers({cwd: context.cwd, env: context.env});
  const count = `${servers.length} MCP ${servers.length === 1 ? 'server' : 'servers'}`;
  const rows = servers.map((s) => [s.name, s.workflow, s.transport, s.url ?? s.command ?? '']);
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) =>
    row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : context.paint(cell, 'dim'))).join('  '),
  );
  const human =
    servers.length === 0
      ? 'No MCP servers are declared by the discovered workflows (mcp.servers in workflow.yaml).\n'
      : `${lines.join('\n')}\n${problems.map((d) => `${formatDiagnostic(d, context.paint)}\n`).join('')}`;
  return {ok: true, message: count, data: {servers, problems}, warnings: problems, human};
};
