/** Removes the reserved `overrides` key from an invocation input and checks its shape. */

import type {InvocationOverrides} from '../context/execution-context.ts';
import {WorkflowInputError} from '../errors/index.ts';
import {isRecord} from '../internal/json-file.ts';
import {checkBudgetValue} from '../manifest/budget-value.ts';

const sections = ['agents', 'decisions', 'budget'] as const;

export function splitOverrides(
  workflow: string,
  input: Record<string, unknown>,
): {input: Record<string, unknown>; overrides: InvocationOverrides} {
  if (!('overrides' in input)) return {input, overrides: {}};
  const {overrides: raw, ...rest} = input;
  const issues: {path: string; message: string}[] = [];
  const overrides: InvocationOverrides = {};
  if (!isRecord(raw)) {
    issues.push({path: 'overrides', message: 'Expected an object such as {"agents": {"<name>": {...}}}.'});
  } else {
    for (const [key, value] of Object.entries(raw)) {
      if (!(sections as readonly string[]).includes(key)) {
        issues.push({
          path: `overrides.${key}`,
          message: `Unknown overrides section; allowed: ${sections.join(', ')}.`,
        });
        continue;
      }
      if (key === 'budget') {
        const checked = checkBudgetValue(value, 'overrides.budget');
        for (const message of checked.problems) issues.push({path: 'overrides.budget', message});
        if (checked.budget !== undefined) overrides.budget = checked.budget;
        continue;
      }
      if (!isRecord(value) || !Object.values(value).every(isRecord)) {
        issues.push({
          path: `overrides.${key}`,
          message: 'Expected a map of configuration name to settings object.',
        });
        continue;
      }
      overrides[key as 'agents' | 'decisions'] = value as Record<string, Record<string, unknown>>;
    }
  }
  if (issues.length > 0) throw new WorkflowInputError(workflow, issues);
  return {input: rest, overrides};
}
