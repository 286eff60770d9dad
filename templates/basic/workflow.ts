import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

// The contract: every field has a description; the input object accepts no unknown fields.
export default workflow({
  input: z.strictObject({
    name: z.string().min(1).describe('Who to greet'),
  }),
  output: z.object({
    greeting: z.string().describe('One sentence that greets the person'),
  }),
  run({name}) {
    return {greeting: `Hello, ${name}!`};
  },
});
