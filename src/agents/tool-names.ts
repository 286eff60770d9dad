/**
 * Built-in tool selection (design philosophy, "Select tools from the workflow"). allowedTools and disallowedTools
 * take shared canonical names or a harness's own names; selection only removes tools, never adds one the harness
 * leaves off. MCP tools are selected by allowedMcps, not here. Each harness's table lives in its adapter folder
 * (`harnesses/<id>/tools.ts`) and reaches everything through the harness registry; `stratos tools list` prints them.
 */
import {StratosError} from '../errors/index.ts';
import {findHarness, type HarnessId, harnessRecords} from './harnesses/registry.ts';

export interface HarnessToolCatalog {
  /** The harness id (its registry record's). */
  harness: string;
  /** Canonical name -> the harness's native tools that provide it ([] when the harness has no separate tool). */
  canonical: Readonly<Record<string, readonly string[]>>;
  /** Native tools Stratos can remove. */
  removable: readonly string[];
  /** Native tools that exist but cannot be removed, with the reason. */
  fixed: Readonly<Record<string, string>>;
  /**
   * Native tools a `beforeTool` hook cannot see on this harness, with the reason. An agent with that hook must have
   * them removed: createAgent refuses it otherwise (./check-hook-coverage.ts).
   */
  unguarded: Readonly<Record<string, string>>;
}

export const canonicalToolNames = [
  'read',
  'write',
  'edit',
  'bash',
  'grep',
  'glob',
  'web fetch',
  'web search',
  'notebook edit',
  'subagent',
  'view image',
] as const;

/** Native tools to remove for a selection; the harness keeps every other tool it has. */
export interface ToolSelection {
  /** Removable native tools that stay enabled. */
  enabled: string[];
  /** Removable native tools that are removed. */
  removed: string[];
}

/**
 * Resolves allowedTools / disallowedTools to native names for `harness`.
 * @throws StratosError STRATOS_AGENT_TOOL_UNKNOWN for a name the harness does not know, or a disallowed tool it
 *   cannot remove.
 */
export function resolveToolSelection(
  harness: HarnessId,
  allowed: readonly string[] | undefined,
  disallowed: readonly string[] | undefined,
  agent: string,
): ToolSelection {
  const catalog = findHarness(harness).tools;
  const toNative = (name: string, list: string): string[] => {
    const canonical = catalog.canonical[name.toLowerCase()];
    if (canonical !== undefined) {
      if (list === 'disallowedTools' && canonical.length === 0) {
        throw unknownTool(agent, harness, name, list, `${harness} has no separate '${name}' tool to remove`);
      }
      const removable = canonical.filter((native) => catalog.removable.includes(native));
      if (list === 'disallowedTools' && removable.length === 0) {
        throw unknownTool(agent, harness, name, list, `its ${canonical.join(', ')} cannot be removed`);
      }
      return removable;
    }
    if (catalog.removable.includes(name)) return [name];
    if (name in catalog.fixed) {
      if (list === 'disallowedTools')
        throw unknownTool(agent, harness, name, list, `it cannot be removed: ${catalog.fixed[name]}`);
      return [];
    }
    throw unknownTool(agent, harness, name, list, 'it is neither a shared name nor one of its tools');
  };
  const enabledByAllow =
    allowed === undefined
      ? [...catalog.removable]
      : unique(allowed.flatMap((name) => toNative(name, 'allowedTools')));
  const removedByDeny = new Set((disallowed ?? []).flatMap((name) => toNative(name, 'disallowedTools')));
  const enabled = enabledByAllow.filter((name) => !removedByDeny.has(name));
  return {enabled, removed: catalog.removable.filter((name) => !enabled.includes(name))};
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function unknownTool(
  agent: string,
  harness: string,
  name: string,
  list: string,
  reason: string,
): StratosError {
  return new StratosError(
    'STRATOS_AGENT_TOOL_UNKNOWN',
    `Agent '${agent}' lists '${name}' in ${list}, but ${reason} (harness ${harness}). Run 'stratos tools list' for the supported names.`,
    {details: {agent, harness, tool: name, list}},
  );
}

/** The tool table of each harness, from the harness registry. */
export const toolCatalogs = Object.fromEntries(
  harnessRecords.map((record) => [record.id, record.tools]),
) as Readonly<Record<HarnessId, HarnessToolCatalog>>;
