import {listTools} from '../../api/tools.ts';
import type {CommandHandler} from './command.ts';

export const toolsListCommand: CommandHandler = async (_command, context) => {
  const result = listTools();
  const lines: string[] = [];
  for (const harness of result.harnesses) {
    lines.push(`${context.paint(harness.harness, 'bold')}  ${context.paint(`(${harness.install})`, 'dim')}`);
    const width = Math.max(...result.canonicalNames.map((name) => name.length));
    for (const name of result.canonicalNames) {
      const natives = harness.canonical[name] ?? [];
      lines.push(
        `  ${name.padEnd(width)}  ${natives.length === 0 ? context.paint('(no separate tool)', 'dim') : natives.join(', ')}`,
      );
    }
    lines.push(`  removable: ${harness.removable.join(', ') || 'none (the agent chooses its own tools)'}`);
    for (const [tool, reason] of Object.entries(harness.fixed)) lines.push(`  fixed: ${tool}: ${reason}`);
    for (const [tool, reason] of Object.entries(harness.unguarded))
      lines.push(`  unguarded: ${tool}: ${reason}`);
    lines.push('');
  }
  return {
    ok: true,
    message: `${result.harnesses.length} harnesses`,
    data: result,
    warnings: [],
    human: `${lines.join('\n')}Selection only removes tools; MCP tools are selected with allowedMcps.\n`,
  };
};
