export type {BuildRecord} from './build-record.ts';
export type {BuildSession} from './build-session.ts';
export {
  type BuildProgress,
  type BuildStep,
  type BuildWorkflowOptions,
  buildWorkflow,
  createBuildSession,
  type WorkflowBuildResult,
} from './build-workflow.ts';
export {childWrapperPath} from './child-references.ts';
export {type CleanResult, cleanWorkflow} from './clean-workflow.ts';
export {compilerFlags, compilerVersion} from './compiler.ts';
export {type BuildFreshness, checkBuildFreshness} from './freshness-status.ts';
export {loadWorkflowDefinition} from './load-definition.ts';
export {type PreparedWorkflow, prepareWorkflow} from './prepare-workflow.ts';
export {resolveWorkflowPaths, type WorkflowPaths} from './workflow-paths.ts';
