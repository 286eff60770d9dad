/**
 * Build-time checks of the `agents` section of workflow.yaml: the same validation createAgent applies to the
 * workflow.yaml layer (fields, harness, effort for the harness, MCP names, tool names) plus the prompt files and
 * templates it names, reported as located diagnostics instead of failing at the first execute. Code-level settings
 * can only be checked by createAgent itself.
 */
import {checkPromptReference, type PromptReference} from '../config/prompts.ts';
import type {Diagnostic} from '../errors/index.ts';
import {isStratosError, type SourceLocation} from '../errors/index.ts';
import type {WorkflowManifest} from '../manifest/index.ts';
import {checkBudgetPrice} from './check-budget-price.ts';
import {planCandidates} from './selection/plan-candidates.ts';
import {unmappedError} from './selection/prepare-candidates.ts';
import {type AgentConfigFields, harnessIds} from './settings.ts';
import {validateAgentSettings} from './validate-agent-settings.ts';

export interface CheckAgentConfigurationsOptions {
  manifest: WorkflowManifest;
  /** The workflow folder: prompt files resolve here. */
  directory: string;
  /** Source location of a manifest path (`['agents', 'reviewer', 'effort']`). */
  locate: (path: (string | number)[]) => Promise<SourceLocation>;
}

/** Diagnostics for every agent configuration of the manifest; empty when all are valid. */
export async function checkAgentConfigurations(
  options: CheckAgentConfigurationsOptions,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  const servers = Object.keys(options.manifest.mcp?.servers ?? {});
  for (const [name, config] of Object.entries(options.manifest.agents ?? {})) {
    const report = async (error: unknown, field: string | undefined) => {
      if (!isStratosError(error)) throw error;
      const path = field === undefined ? ['agents', name] : ['agents', name, field];
      diagnostics.push({
        code: error.code,
        severity: 'error',
        message: error.message,
        location: await options.locate(path),
        path: path.join('.'),
      });
    };
    // Every issue of the shared validator, each at its own field; prompt files are checked (and parsed) below.
    const issues = validateAgentSettings({name, settings: config, mcpServers: servers});
    for (const issue of issues) {
      const path = ['agents', name, issue.field];
      diagnostics.push({
        code: issue.code,
        severity: 'error',
        message: issue.message,
        location: await options.locate(path),
        path: path.join('.'),
      });
    }
    if (issues.length > 0) continue;
    const settings = config as AgentConfigFields;
    if (settings.models !== undefined) {
      // Every preference must map to a native id on some harness it could run on (no guessing at run time).
      const plan = await planCandidates({
        models: settings.models,
        harness: settings.harness,
        provider: settings.provider,
        registered: harnessIds,
      });
      if (plan.unmapped.length > 0) await report(unmappedError(name, plan.unmapped), 'models');
    }
    diagnostics.push(...(await checkBudgetPrice(name, settings, options.manifest, options.locate)));
    if (settings.systemPrompt !== undefined) {
      try {
        await checkPromptReference(settings.systemPrompt as PromptReference, {
          directory: options.directory,
          field: `system prompt of agent '${name}'`,
        });
      } catch (error) {
        await report(error, 'systemPrompt');
      }
    }
  }
  return diagnostics;
}
