/**
 * Configuration checks that need the modules above the manifest layer (agent settings, prompt files): run by
 * `list` and `build` so a wrong harness, effort, MCP name, tool name or prompt file is a located finding of the
 * workflow, not an error at its first execute. Findings join the handle's manifest diagnostics, so a build stops
 * before it installs, prepares or compiles anything.
 */
import type {WorkflowHandle} from '../discovery/index.ts';

/** Adds the findings of the agent configurations in `handle`'s manifest to its diagnostics. */
export async function checkWorkflowConfiguration(handle: WorkflowHandle): Promise<WorkflowHandle> {
  const manifest = handle.manifest;
  if (manifest?.agents === undefined || Object.keys(manifest.agents).length === 0) return handle;
  const {checkAgentConfigurations} = await import('../agents/check-agent-configurations.ts');
  const findings = await checkAgentConfigurations({
    manifest,
    directory: handle.directory,
    locate: (path) => handle.locate(path),
  });
  handle.diagnostics.push(...findings);
  return handle;
}
