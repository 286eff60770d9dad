import {choice, decision, noul, score, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const queues = {
  bug: 'Software errors: something is broken or returns errors',
  billing: 'Payments, invoices, refunds and charges',
  account: 'Sign-in, passwords, profile and account access',
} as const;

export default workflow({
  input: z.strictObject({
    ticket: z.string().min(1).describe('The ticket text as the customer wrote it'),
    minConfidence: z
      .number()
      .min(0)
      .max(1)
      .default(0.6)
      .describe('Route to human-review when the chosen queue is less likely than this'),
  }),
  output: z.object({
    queue: z.enum(['bug', 'billing', 'account', 'human-review']).describe('Where the ticket goes'),
    probabilities: z.record(z.string(), z.number()).describe('The model probability of each queue'),
    urgent: z.number().describe('Probability that the ticket needs attention today'),
    severity: z.number().describe('Expected severity from 0 (cosmetic) to 2 (outage)'),
  }),
  async run({ticket, minConfidence}) {
    const answers = await decision({
      state: {ticket},
      questions: {
        queue: choice('Which support queue should handle this ticket?', queues),
        urgent: noul('The ticket needs attention today.'),
        severity: score('How severe is the impact on the customer?', [
          'cosmetic',
          'degraded service',
          'outage',
        ]),
      },
      config: 'triage',
    });
    // Thresholds and branching stay in workflow code: the decision only reports what the model thinks.
    const sure = answers.queue.probabilities[answers.queue.choice] >= minConfidence;
    const queue: keyof typeof queues | 'human-review' = sure ? answers.queue.choice : 'human-review';
    return {
      queue,
      probabilities: {...answers.queue.probabilities},
      urgent: answers.urgent.noul,
      severity: answers.severity.score,
    };
  },
});
