/** Builds the harness-independent view of a native tool call for hooks and events. */

import type {HarnessToolCatalog} from '../tool-names.ts';
import type {ToolCall} from './hooks.ts';

/** The call as hooks and events see it; `tools` is the calling harness's tool table (its canonical names). */
export function describeToolCall(
  tools: Pick<HarnessToolCatalog, 'canonical'>,
  nativeName: string,
  input: unknown,
  mcp: {server: string; tool: string} | undefined,
): ToolCall {
  const canonical = Object.entries(tools.canonical).find(([, natives]) => natives.includes(nativeName))?.[0];
  return {
    nativeName,
    ...(canonical === undefined ? {} : {canonicalName: canonical}),
    ...(mcp === undefined ? {} : {mcp}),
    input:
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? {...(input as Record<string, unknown>)}
        : {},
  };
}

/** Splits `mcp__<server>__<tool>` using the known server names (a server name may itself contain `__`). */
export function parseMcpToolName(
  name: string,
  servers: readonly string[],
): {server: string; tool: string} | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const server = [...servers].sort((a, b) => b.length - a.length).find((s) => name.startsWith(`mcp__${s}__`));
  return server === undefined ? undefined : {server, tool: name.slice(`mcp__${server}__`.length)};
}
