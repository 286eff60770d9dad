/**
 * Runtime validation of workflow input and output against the Zod schemas, with issues reduced to a
 * path and a sentence: what a caller (often an agent) needs to correct its request.
 */
import {z} from 'zod';
import {toJsonValue} from '../internal/json-value-limits.ts';
import type {ContractSide} from './contract-rules.ts';
import type {WorkflowDefinition} from './define-workflow.ts';
import {appendKey, formatIssuePath, sidePath} from './schema-path.ts';

/** One reason a value was rejected. `path` is dotted (`options.items[2].id`); `''` is the value itself. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** The parsed value (defaults applied, output stripped of undeclared fields) or the issues found. */
export type ValidationResult<T> = {ok: true; value: T} | {ok: false; issues: ValidationIssue[]};

/** At most this many issues are printed; the rest are counted, so one bad array cannot flood a terminal. */
const maxFormattedIssues = 20;

/**
 * Validates invocation input (without the reserved `overrides` key, which the runtime removes first).
 * Unknown fields are issues at every depth, and defaults apply only to omitted fields.
 *
 * @example
 * const result = await validateWorkflowInput(definition, {repo: 'org/repo', pr_number: 42});
 * if (!result.ok) console.error(formatValidationIssues(result.issues));
 */
export function validateWorkflowInput<I extends z.core.$ZodType, O extends z.core.$ZodType>(
  definition: WorkflowDefinition<I, O>,
  value: unknown,
): Promise<ValidationResult<z.output<I>>> {
  return validateSide(definition.input, value, 'input');
}

/**
 * Validates the value `run` returned (after awaiting it) against the output schema. The value validated, and
 * returned, is its JSON form (see json-value-limits.ts).
 */
export function validateWorkflowOutput<I extends z.core.$ZodType, O extends z.core.$ZodType>(
  definition: WorkflowDefinition<I, O>,
  value: unknown,
): Promise<ValidationResult<z.output<O>>> {
  return validateSide(definition.output, value, 'output');
}

/**
 * Formats issues as one line each, `- path: message` (`(root)` for the value itself), at most 20 lines
 * plus a count of the rest.
 */
export function formatValidationIssues(issues: readonly ValidationIssue[]): string {
  const lines = issues
    .slice(0, maxFormattedIssues)
    .map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`);
  if (issues.length > maxFormattedIssues)
    lines.push(`- ... and ${issues.length - maxFormattedIssues} more issues`);
  return lines.join('\n');
}

async function validateSide<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  side: ContractSide,
): Promise<ValidationResult<z.output<S>>> {
  // The value is converted to its JSON form once, here: what cannot be written as JSON (too deep, cyclic, a BigInt,
  // a function, a throwing toJSON) fails with its path before Zod, and what is validated is what is then recorded,
  // returned and printed, so nothing can fail to serialize after the run was recorded.
  const json = toJsonValue(value);
  if (!json.ok) return {ok: false, issues: [json.issue]};
  // reportInput tells a missing field (input undefined) from a wrong one; the values never reach messages.
  const result = await z.safeParseAsync(schema, json.value, {reportInput: true});
  if (result.success) return {ok: true, value: result.data as z.output<S>};
  return {ok: false, issues: result.error.issues.flatMap((issue) => toValidationIssues(issue, side))};
}

function toValidationIssues(issue: z.core.$ZodIssue, side: ContractSide): ValidationIssue[] {
  const path = formatIssuePath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: appendKey(path, key),
        message: `Unknown field '${key}' in ${sidePath(side, path)}.`,
      }));
    case 'invalid_type': {
      const key = issue.path.at(-1);
      if ('input' in issue && issue.input === undefined && typeof key === 'string') {
        const parent = formatIssuePath(issue.path.slice(0, -1));
        return [
          {
            path,
            message: `Missing required field '${key}' in ${sidePath(side, parent)} (expected ${issue.expected}).`,
          },
        ];
      }
      return [{path, message: issue.message}];
    }
    case 'invalid_union':
      return [{path, message: describeUnionIssue(issue, side)}];
    default:
      return [{path, message: issue.message}];
  }
}

/** A union failure names its closest alternative, the one with the fewest issues, to show what to fix. */
function describeUnionIssue(issue: z.core.$ZodIssueInvalidUnion, side: ContractSide): string {
  const alternatives = issue.errors;
  if (alternatives.length === 0) return issue.message;
  let closest = alternatives[0] ?? [];
  for (const candidate of alternatives) if (candidate.length < closest.length) closest = candidate;
  const details = closest
    .flatMap((inner) => toValidationIssues({...inner, path: [...issue.path, ...inner.path]}, side))
    .map((inner) => (inner.path === '' ? inner.message : `${inner.path}: ${inner.message}`));
  return (
    `The value matches none of the ${alternatives.length} allowed alternatives` +
    (details.length > 0 ? `; the closest fails with ${details.join('; ')}` : '.')
  );
}
