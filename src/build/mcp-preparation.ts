/**
 * MCP wrapper preparation inside a build (specification "MCP wrapper generation and storage", "Build-time
 * freshness"). Placeholder seam: returns nothing to prepare until the MCP wrapper preparation lands here.
 */
import type {WorkflowHandle} from '../discovery/index.ts';
import type {Diagnostic} from '../errors/index.ts';
import type {WorkflowPaths} from './workflow-paths.ts';

export interface McpPreparationOptions {
  /** An explicit `stratos build`: rediscover and regenerate every configured server. */
  explicit: boolean;
}

export interface McpPreparation {
  diagnostics: Diagnostic[];
  /** Generated wrapper contents (or their hashes) by file name: part of the build key. */
  keyInputs: Record<string, string>;
}

export async function prepareMcpWrappers(
  _handle: WorkflowHandle,
  _paths: WorkflowPaths,
  _options: McpPreparationOptions,
): Promise<McpPreparation> {
  return {diagnostics: [], keyInputs: {}};
}
