export {type BuildWorkflowsOptions, type BuildWorkflowsResult, buildWorkflows} from './build-workflows.ts';
export {cleanWorkflows} from './clean-workflows.ts';
export {
  describeWorkflow,
  getWorkflowSchema,
  type WorkflowDescription,
  type WorkflowSchemas,
} from './describe-workflow.ts';
export {type Host, type HostOptions, resolveHost} from './host.ts';
export {type ListWorkflowsResult, listWorkflows, type WorkflowSummary} from './list-workflows.ts';
export type {ProgressOptions} from './progress.ts';
export {type RunWorkflowOptions, type RunWorkflowResult, runWorkflow} from './run-workflow.ts';
