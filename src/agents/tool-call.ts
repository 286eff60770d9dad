/** Builds the harness-independent view of a native tool call for hooks and events. */

import {findHarness, type HarnessId} from './harnesses/registry.ts';
import type {ToolCall} from './hooks.ts';

export function describeToolCall(
  harness: HarnessId,
  nativeName: string,
  input: unknown,
  mcp: {server: string; tool: string} | undefined,
): ToolCall {
  const canonical = Object.entries(findHarness(harness).tools.canonical).find(([, natives]) =>
    natives.includes(nativeName),
  )?.[0];
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
