export {
  type Agent,
  type AgentConfig,
  type AgentSelection,
  createAgent,
  type SelectionSkip,
} from './create-agent.ts';
export type {
  AgentHarness,
  AgentMcpServer,
  HarnessSession,
  HarnessSessionOptions,
  HarnessTurnResult,
} from './harness.ts';
export type {
  AfterToolDecision,
  AgentEvent,
  AgentHooks,
  AgentLifecycleEvent,
  BeforeToolDecision,
  ToolCall,
} from './harness-kit/hooks.ts';
export {
  findHarness,
  type HarnessRecord,
  harnessRecords,
  isHarnessId,
} from './harnesses/registry.ts';
export {harnessPackages} from './load-harness.ts';
export {
  type AgentConfigFields,
  type AgentEffort,
  type AgentSettings,
  effortLevels,
  type HarnessId,
  harnessIds,
  type ResolvedAgentSettings,
} from './settings.ts';
export {canonicalToolNames, type HarnessToolCatalog, toolCatalogs} from './tool-names.ts';
export {
  type AgentSettingsIssue,
  type ValidateAgentSettingsOptions,
  validateAgentSettings,
} from './validate-agent-settings.ts';
