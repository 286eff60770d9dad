import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
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
