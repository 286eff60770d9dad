import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createPrReview from '../.generated/pr-review.js';

export default workflow({
  input: z.strictObject({
    repo: z.string().describe('GitHub repository in owner/name format'),
    pr_numbers: z.array(z.number().int()).min(1).describe('Pull request numbers to review'),
  }),
  output: z.object({
    summaries: z.array(z.string()).describe('One review request summary per accepted number, in input order'),
    failed: z
      .array(
        z.object({
          pr_number: z.number().describe(''),
          error: z.string().describe('Why pr-review rejected it'),
        }),
      )
      .describe('Numbers pr-review rejected'),
  }),
  async run({repo, pr_numbers}) {
    // One child object, many invocations: each execute is its own run of pr-review, so they can overlap.
    const prReview = createPrReview();
    const outcomes = await Promise.allSettled(
      pr_numbers.map((pr_number) => prReview.execute({repo, pr_number})),
    );
    const summaries: string[] = [];
    const failed: {pr_number: number; error: string}[] = [];
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') summaries.push(outcome.value.summary);
      else
        failed.push({
          pr_number: pr_numbers[index]!,
          error: String(outcome.reason?.message ?? outcome.reason),
        });
    });
    return {summaries, failed};
  },
});
