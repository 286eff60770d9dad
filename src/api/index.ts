export {type BuildWorkflowsOptions, type BuildWorkflowsResult, buildWorkflows} from './build-workflows.ts';
export {cleanWorkflows} from './clean-workflows.ts';
export {
  describeWorkflow,
  getWorkflowSchema,
  type WorkflowDescription,
  type WorkflowSchemas,
} from './describe-workflow.ts';
export {type Host, type HostOptions, resolveHost} from './host.ts';
export {type ListMcpServersResult, listMcpServers, type McpServerSummary} from './list-mcp-servers.ts';
export {type ListWorkflowsResult, listWorkflows, type WorkflowSummary} from './list-workflows.ts';
export {
  loginMcpServer,
  logoutMcpServer,
  type McpAuthOptions,
  type McpLoginResult,
  type McpLogoutResult,
} from './mcp-auth.ts';
export type {ProgressOptions} from './progress.ts';
export {type RunWorkflowOptions, type RunWorkflowResult, runWorkflow} from './run-workflow.ts';
export {
  type ListRunsOptions,
  type ListRunsResult,
  listRuns,
  type RunSummary,
  type RunTreeNode,
  type ShowRunResult,
  showRun,
  startRunRetention,
  type TokenUsage,
} from './runs.ts';
export {type HarnessToolList, type ListToolsResult, listTools} from './tools.ts';
