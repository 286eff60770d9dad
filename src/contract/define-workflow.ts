/**
 * `workflow({input, output, run})`, the one authoring function. It only packages the definition: the
 * contract rules are checked by the build (as diagnostics), never here, so that a module with a bad
 * schema can still be loaded and every problem reported at once.
 */
import type {z} from 'zod';
import {StratosError} from '../errors/index.ts';

/** Marks definitions made by `workflow()`; `Symbol.for` so that two copies of the package agree. */
const workflowBrand = Symbol.for('stratos.workflow');

/** What `run` may return: the output's input type (defaults may be left out), directly or as a promise. */
export type WorkflowResult<O extends z.core.$ZodType> = z.input<O> | Promise<z.input<O>>;

/** What an author passes to {@link workflow}. */
export interface WorkflowOptions<I extends z.core.$ZodType, O extends z.core.$ZodType> {
  /** The input object schema, normally `z.strictObject({...})` with a description on every field. */
  input: I;
  /** The output object schema, `z.object({...})`; an empty object for a workflow with no result data. */
  output: O;
  /** Does the work: receives the validated input (defaults applied) and returns the output. */
  run(input: z.output<I>): NoInfer<WorkflowResult<O>>;
}

/** A workflow made by {@link workflow}: frozen, and recognised by {@link isWorkflowDefinition}. */
export interface WorkflowDefinition<
  I extends z.core.$ZodType = z.core.$ZodType,
  O extends z.core.$ZodType = z.core.$ZodType,
> {
  readonly input: I;
  readonly output: O;
  readonly run: (input: z.output<I>) => WorkflowResult<O>;
}

/**
 * Declares a workflow. `run` receives `z.output<typeof input>` and must return `z.input<typeof output>`
 * (or a promise of it). The schemas are not checked here: `stratos build` reports contract violations.
 *
 * @throws StratosError `STRATOS_CONTRACT_NOT_WORKFLOW` when `definition` is not an object with
 *   `input`, `output` and a `run` function.
 * @example
 * export default workflow({
 *   input: z.strictObject({repo: z.string().describe('GitHub repository in owner/name format')}),
 *   output: z.object({summary: z.string().describe('Review request summary')}),
 *   run({repo}) {
 *     return {summary: `Review requested for ${repo}`};
 *   },
 * });
 */
export function workflow<I extends z.core.$ZodType, O extends z.core.$ZodType>(
  definition: WorkflowOptions<I, O>,
): WorkflowDefinition<I, O> {
  const candidate: unknown = definition;
  if (typeof candidate !== 'object' || candidate === null) {
    throw new StratosError(
      'STRATOS_CONTRACT_NOT_WORKFLOW',
      'workflow() expects an object {input, output, run}, but received ' + describeValue(candidate) + '.',
    );
  }
  const {input, output, run} = candidate as Record<string, unknown>;
  const missing = [
    input === undefined || input === null ? 'input' : undefined,
    output === undefined || output === null ? 'output' : undefined,
    typeof run === 'function' ? undefined : 'run',
  ].filter((name) => name !== undefined);
  if (missing.length > 0) {
    throw new StratosError(
      'STRATOS_CONTRACT_NOT_WORKFLOW',
      `workflow() needs input and output schemas and a run function; missing or invalid: ${missing.join(', ')}.`,
    );
  }
  const result = {input: definition.input, output: definition.output, run: definition.run};
  // Not enumerable, so that spreading or printing a definition shows only what the author wrote.
  Object.defineProperty(result, workflowBrand, {value: true});
  return Object.freeze(result);
}

/** True for a definition made by `workflow()` of any copy of the package. */
export function isWorkflowDefinition(value: unknown): value is WorkflowDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[workflowBrand] === true &&
    typeof (value as {run?: unknown}).run === 'function'
  );
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}
