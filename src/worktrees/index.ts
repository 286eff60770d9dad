export {type AcquireWorktreeOptions, acquireWorktree, type WorktreeLease} from './acquire-worktree.ts';
export {type CleanupDecision, type CleanupReason, cleanUpWorktree} from './clean-up-worktree.ts';
export {findRepository, type Repository} from './find-repository.ts';
export {type CheckoutFinding, inspectCheckout} from './inspect-checkout.ts';
export {reconcileWorktrees} from './reconcile-worktrees.ts';
export {RunWorktrees, type RunWorktreesOptions} from './run-worktrees.ts';
export {withWorktreeLock, worktreeLockTimeoutMs} from './worktree-lock.ts';
export {branchOf, generateWorktreeName, randomWorktreeName, validateWorktreeName} from './worktree-names.ts';
export {readRecord, recordsDirectory, type WorktreeRecord} from './worktree-records.ts';
