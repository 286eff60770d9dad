export type {BuildInputs, BuildReuse} from './build-inputs.ts';
export type {BuildRecord} from './build-record.ts';
export type {BuildSession} from './build-session.ts';
export {
  type BuildProgress,
  type BuildStep,
  type BuildWorkflowOptions,
  buildAndLoad,
  buildWorkflow,
  createBuildSession,
  type WorkflowBuildResult,
} from './build-workflow.ts';
export {childWrapperPath} from './child-references.ts';
export {type CleanResult, cleanWorkflow} from './clean-workflow.ts';
export {compilerFlags, compilerVersion} from './compiler.ts';
export {type BuildFreshness, checkBuildFreshness} from './freshness-status.ts';
export {loadWorkflowDefinition} from './load-definition.ts';
export {
  type LoadedWorkflow,
  type PreparedWorkflow,
  prepareAndLoadWorkflow,
  prepareWorkflow,
} from './prepare-workflow.ts';
export {resolveWorkflowPaths, type WorkflowPaths} from './workflow-paths.ts';
