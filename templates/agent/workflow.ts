import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    text: z.string().min(1).describe('The text to find a title for'),
  }),
  output: z.object({
    title: z.string().describe('A short title for the text'),
  }),
  async run({text}) {
    // `writer` is agents.writer of workflow.yaml; the answer is validated against outputSchema.
    const writer = createAgent('writer', {
      outputSchema: z.object({title: z.string().max(80).describe('A title of at most 80 characters')}),
    });
    const {title} = await writer.execute(`Suggest a short title for this text:\n\n${text}`);
    return {title};
  },
});
