/** Loads a compiled workflow module and reads its `workflow(...)` definition. Evaluates the module, never `run`. */
import {pathToFileURL} from 'node:url';
import {isWorkflowDefinition, type WorkflowDefinition} from '../contract/define-workflow.ts';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';

export async function loadWorkflowDefinition(
  compiledEntrypoint: string,
  workflowName: string,
  sourceEntrypoint: string,
): Promise<WorkflowDefinition> {
  let module: {default?: unknown};
  try {
    module = (await import(pathToFileURL(compiledEntrypoint).href)) as {default?: unknown};
  } catch (error) {
    throw new StratosError(
      'STRATOS_CONTRACT_MODULE_FAILED',
      `Loading workflow '${workflowName}' threw while evaluating its module: ${describeError(error)}. Keep actions inside run, not at module level.`,
      {cause: error, location: {file: sourceEntrypoint}},
    );
  }
  if (!isWorkflowDefinition(module.default)) {
    throw new StratosError(
      'STRATOS_CONTRACT_NOT_WORKFLOW',
      `The entrypoint of workflow '${workflowName}' does not default-export workflow({input, output, run}). Write 'export default workflow({...})' with workflow imported from '@stratoscli/stratos'.`,
      {location: {file: sourceEntrypoint}},
    );
  }
  return module.default;
}
