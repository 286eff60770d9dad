// Worktrees: an agent's `worktree` setting, its shapes, their check and their normal form (validated by
// ./validate-agent-settings.ts, resolved by ./settings.ts; the checkout itself is src/worktrees/).

/** `true`, a worktree name, or `{name?, cleanup?}`; `false` or absent: no worktree. */
export type WorktreeSetting = boolean | string | {name?: string; cleanup?: boolean};

/** The normalized worktree of an agent: `name` absent for an unnamed one; `cleanup: false` keeps the checkout. */
export interface ResolvedWorktree {
  name?: string;
  cleanup: boolean;
}

/** True for every shape of WorktreeSetting (a name must not be blank). */
export function isWorktreeSetting(value: unknown): value is WorktreeSetting {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, entry]) =>
      entry === undefined ||
      (key === 'name' && typeof entry === 'string' && entry.trim() !== '') ||
      (key === 'cleanup' && typeof entry === 'boolean'),
  );
}

/** The one shape of a worktree setting; undefined when the agent has none. */
export function normalizeWorktree(value: WorktreeSetting | undefined): ResolvedWorktree | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {cleanup: true};
  if (typeof value === 'string') return {name: value, cleanup: true};
  return {...(value.name === undefined ? {} : {name: value.name}), cleanup: value.cleanup ?? true};
}
