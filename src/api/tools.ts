/** `stratos tools list`: the built-in tool names each harness supports for allowedTools / disallowedTools. */
import {canonicalToolNames, type HarnessId, harnessRecords} from '../agents/index.ts';

export interface HarnessToolList {
  harness: HarnessId;
  /** The optional peer dependency to install for this harness. */
  package: string;
  /** The command that installs it. */
  install: string;
  /** Shared name -> native tools (an empty list: the harness has no separate tool for it). */
  canonical: Record<string, string[]>;
  /** Native tools that allowedTools / disallowedTools can remove. */
  removable: string[];
  /** Native tools that cannot be removed, with the reason. */
  fixed: Record<string, string>;
  /** Native tools a beforeTool hook cannot see, with the reason: an agent with that hook must remove them. */
  unguarded: Record<string, string>;
}

export interface ListToolsResult {
  canonicalNames: string[];
  harnesses: HarnessToolList[];
}

/** One entry per record of the harness registry, in registry order. */
export function listTools(): ListToolsResult {
  return {
    canonicalNames: [...canonicalToolNames],
    harnesses: harnessRecords.map((record) => ({
      harness: record.id,
      package: record.sdkPackage,
      install: record.install,
      canonical: Object.fromEntries(
        Object.entries(record.tools.canonical).map(([name, natives]) => [name, [...natives]]),
      ),
      removable: [...record.tools.removable],
      fixed: {...record.tools.fixed},
      unguarded: {...record.tools.unguarded},
    })),
  };
}
