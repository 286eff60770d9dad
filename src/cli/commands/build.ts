import {buildWorkflows} from '../../api/build-workflows.ts';
import type {WorkflowBuildResult} from '../../builder/index.ts';
import {BuildError, StratosError} from '../../errors/index.ts';
import {formatDiagnostic} from '../output/format-diagnostic.ts';
import {type CommandHandler, workflowTarget} from './command.ts';

export const buildCommand: CommandHandler = async (command, context) => {
  const target = workflowTarget(command);
  const {results, ok} = await buildWorkflows(target, {
    cwd: context.cwd,
    env: context.env,
    force: command.values.force === true,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
  });
  const data = {workflows: results.map(summarize)};
  const warnings = results.flatMap((r) => r.diagnostics.filter((d) => d.severity === 'warning'));
  const human = results.map((r) => renderResult(r, context.paint)).join('');
  if (!ok) {
    const failed = results.filter((r) => r.status === 'failed');
    const only = results.length === 1 ? failed[0] : undefined;
    // Readable output lists the findings under their workflow, so its error only sums them up; the --json
    // message keeps them (callers read it), beside `data`.
    const error =
      only !== undefined
        ? new BuildError(only.name, only.diagnostics)
        : new StratosError(
            'STRATOS_BUILD_FAILED',
            `${failed.length} of ${results.length} workflows failed to build: ${failed.map((f) => f.name).join(', ')}.`,
          );
    const message =
      only === undefined || context.json
        ? error.message
        : `${summarizeFailure(only)} Fix the findings listed above and build again.`;
    const withData = new StratosError(error.code, message, {location: error.location, details: data});
    return {ok: false, error: withData, warnings, human};
  }
  const built = results.filter((r) => r.status === 'built').length;
  const prepared = results.filter((r) => r.status === 'prepared').length;
  const message =
    results.length === 0
      ? 'No workflows to build'
      : prepared > 0 && prepared === results.length
        ? `MCP wrappers prepared for ${prepared} ${prepared === 1 ? 'workflow' : 'workflows'} (nothing compiled)`
        : `${results.length} ${results.length === 1 ? 'workflow' : 'workflows'} up to date (${built} built${prepared > 0 ? `, ${prepared} with MCP wrappers only` : ''})`;
  return {ok: true, message, data, warnings, human: human || `${message}\n`};
};

/** `Workflow 'x' failed to build (2 errors).`: the count, without the findings themselves. */
function summarizeFailure(result: WorkflowBuildResult): string {
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  return `Workflow '${result.name}' failed to build (${errors} ${errors === 1 ? 'error' : 'errors'}).`;
}

function summarize(result: WorkflowBuildResult) {
  return {
    name: result.name,
    directory: result.directory,
    status: result.status,
    durationMs: result.durationMs,
    diagnostics: result.diagnostics,
  };
}

function renderResult(result: WorkflowBuildResult, paint: Parameters<typeof formatDiagnostic>[1]): string {
  const mark =
    result.status === 'failed'
      ? paint('✗ failed', 'red')
      : result.status === 'prepared'
        ? paint('✓ MCP wrappers prepared (no entrypoint yet, nothing compiled)', 'green')
        : paint(result.status === 'built' ? '✓ built' : '✓ reused', 'green');
  const lines = [`${mark} ${result.name} (${result.durationMs} ms)`];
  for (const diagnostic of result.diagnostics) lines.push(`  ${formatDiagnostic(diagnostic, paint)}`);
  return `${lines.join('\n')}\n`;
}
