import {choice, decision, noul, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    message: z.string().min(1).describe('The message as it was written'),
  }),
  output: z.object({
    kind: z.enum(['question', 'request']).describe('What the message is'),
    confidence: z.number().describe('The model probability of that kind'),
    urgent: z.number().describe('Probability that the message needs an answer today'),
  }),
  async run({message}) {
    // `kind` is decisions.kind of workflow.yaml: the provider and the model.
    const answers = await decision({
      state: {message},
      questions: {
        kind: choice('What kind of message is this?', {
          question: 'It asks for information',
          request: 'It asks for something to be done',
        }),
        urgent: noul('The message needs an answer today.'),
      },
      config: 'kind',
    });
    // Thresholds and branching stay in workflow code: the decision reports what the model thinks.
    const kind = answers.kind.choice;
    return {kind, confidence: answers.kind.probabilities[kind], urgent: answers.urgent.noul};
  },
});
