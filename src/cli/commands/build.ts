import {buildWorkflows} from '../../api/build-workflows.ts';
import type {WorkflowBuildResult} from '../../builder/index.ts';
import {BuildError, StratosError} from '../../errors/index.ts';
import {type CommandHandler, workflowTarget} from '../command.ts';
import {formatDiagnostic} from '../output/format-diagnostic.ts';

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
    const error =
      results.length === 1 && failed[0] !== undefined
        ? new BuildError(failed[0].name, failed[0].diagnostics)
        : new StratosError(
            'STRATOS_BUILD_FAILED',
            `${failed.length} of ${results.length} workflows failed to build: ${failed.map((f) => f.name).join(', ')}.`,
          );
    const withData = new StratosError(error.code, error.message, {location: error.location, details: data});
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
