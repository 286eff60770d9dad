/**
 * The built-in tools of an ACP agent as `allowedTools` / `disallowedTools` and `stratos tools list` see them: none
 * that Stratos can name or remove. The Agent Client Protocol has no tool list and no way to remove a tool; the
 * agent reports each call as it makes it (a title, a kind such as `read` or `execute`) and asks permission for the
 * ones it wants approved, which is where a beforeTool hook runs.
 */
import type {HarnessToolCatalog} from '../../tool-names.ts';

export const acpTools: HarnessToolCatalog = {
  harness: 'acp',
  canonical: {
    read: [],
    write: [],
    edit: [],
    bash: [],
    grep: [],
    glob: [],
    'web fetch': [],
    'web search': [],
    'notebook edit': [],
    subagent: [],
    'view image': [],
  },
  removable: [],
  fixed: {},
  unguarded: {},
};
