/** Codex's built-in tools as `allowedTools` / `disallowedTools` and `stratos tools list` see them. */
import type {HarnessToolCatalog} from '../../tool-names.ts';

export const codexTools: HarnessToolCatalog = {
  harness: 'codex',
  canonical: {
    read: [],
    write: ['apply_patch'],
    edit: ['apply_patch'],
    bash: ['shell'],
    grep: [],
    glob: [],
    'web fetch': [],
    'web search': ['web_search'],
    'notebook edit': [],
    subagent: [],
    'view image': ['view_image'],
  },
  removable: ['shell', 'web_search', 'view_image'],
  fixed: {
    apply_patch: 'Codex offers it for models that support it; no setting removes it.',
    update_plan: 'Part of the Codex agent loop; no setting removes it.',
    request_user_input: 'Part of the Codex agent loop; no setting removes it.',
  },
  // Codex's native PreToolUse hook sees its local tools (./tool-hooks.ts); a hosted tool runs at the provider.
  unguarded: {
    web_search: 'it runs at the model provider, not in Codex, so no Codex hook sees it',
  },
};
