/** `stratos tools list`: the built-in tool names each harness supports for allowedTools / disallowedTools. */
import {
  canonicalToolNames,
  type HarnessId,
  harnessIds,
  harnessPackages,
  toolCatalogs,
} from '../agents/index.ts';

export interface HarnessToolList {
  harness: HarnessId;
  /** The optional peer dependency to install for this harness. */
  package: string;
  /** Shared name -> native tools (an empty list: the harness has no separate tool for it). */
  canonical: Record<string, string[]>;
  /** Native tools that allowedTools / disallowedTools can remove. */
  removable: string[];
  /** Native tools that cannot be removed, with the reason. */
  fixed: Record<string, string>;
}

export interface ListToolsResult {
  canonicalNames: string[];
  harnesses: HarnessToolList[];
}

export function listTools(): ListToolsResult {
  return {
    canonicalNames: [...canonicalToolNames],
    harnesses: harnessIds.map((harness) => {
      const catalog = toolCatalogs[harness];
      return {
        harness,
        package: harnessPackages[harness],
        canonical: Object.fromEntries(
          Object.entries(catalog.canonical).map(([name, natives]) => [name, [...natives]]),
        ),
        removable: [...catalog.removable],
        fixed: {...catalog.fixed},
      };
    }),
  };
}
