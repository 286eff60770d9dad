/** The specification's pr-review example, shared by the contract tests. */
import {z} from 'zod';
import {workflow} from '../../../src/contract/index.ts';

export const prReview = workflow({
  input: z.strictObject({
    repo: z.string().describe('GitHub repository in owner/name format'),
    pr_number: z.number().int().positive().describe('Pull request number'),
  }),
  output: z.object({
    summary: z.string().describe('Review request summary'),
  }),
  run({repo, pr_number}) {
    return {summary: `Review requested for ${repo}#${pr_number}`};
  },
});

/** Builds a definition with a placeholder run, for tests that only look at the schemas. */
export function schemasOnly<I extends z.core.$ZodType, O extends z.core.$ZodType = z.ZodObject<{}>>(
  input: I,
  output?: O,
) {
  return workflow({
    input,
    output: output ?? (z.object({}) as z.core.$ZodType as O),
    run: () => ({}) as never,
  });
}
