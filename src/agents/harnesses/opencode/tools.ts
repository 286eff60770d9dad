/** OpenCode's built-in tools as `allowedTools` / `disallowedTools` and `stratos tools list` see them. */
import type {HarnessToolCatalog} from '../../tool-names.ts';

export const openCodeTools: HarnessToolCatalog = {
  harness: 'opencode',
  canonical: {
    read: ['read'],
    write: ['write'],
    edit: ['edit'],
    bash: ['bash'],
    grep: ['grep'],
    glob: ['glob'],
    'web fetch': ['webfetch'],
    'web search': [],
    'notebook edit': [],
    subagent: ['task'],
    'view image': [],
  },
  removable: ['bash', 'edit', 'glob', 'grep', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'write'],
  fixed: {
    question: 'Waits for a person; Stratos always removes it, since agents run noninteractively.',
  },
  // Tool hooks reach OpenCode through the MCP hook bridge, which only MCP tool calls pass through.
  unguarded: Object.fromEntries(
    ['bash', 'edit', 'glob', 'grep', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'write'].map(
      (tool) => [
        tool,
        'OpenCode runs its built-in tools itself; only MCP tool calls pass through the MCP hook bridge',
      ],
    ),
  ),
};
