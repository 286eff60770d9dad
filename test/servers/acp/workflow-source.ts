// The workflow the ACP tests run: one agent (input `agent`), its prompts in order, an optional beforeTool hook
// and output schema, and cancellation once a named tool call starts. It returns the replies, the observed events
// and the first failure as data, so each test reads one envelope.
export const acpWorkflowSource = `import {type AgentHooks, createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    agent: z.string().describe('Agent configuration'),
    prompts: z.array(z.string()).describe('Prompts, in order'),
    hook: z.enum(['none', 'allow', 'deny', 'modify', 'throw']).describe('beforeTool hook'),
    structured: z.boolean().describe('Ask for {answer: string}'),
    cancelOnTool: z.string().describe('Cancel when this tool call starts; empty: never'),
  }),
  output: z.object({
    replies: z.array(z.unknown()).describe('Answers'),
    events: z.array(z.string()).describe('Observed events'),
    calls: z.array(z.unknown()).describe('Tool calls the hook saw'),
    error: z.object({code: z.string().describe(''), message: z.string().describe('')}).nullable().describe('First failure'),
  }),
  async run({agent: name, prompts, hook, structured, cancelOnTool}) {
    const events: string[] = [];
    const calls: unknown[] = [];
    const hooks: AgentHooks | undefined = hook === 'none' ? undefined : {
      beforeTool(call) {
        calls.push(call);
        if (hook === 'throw') throw new Error('hook broke');
        if (hook === 'deny') return {action: 'deny', feedback: 'not this file'};
        if (hook === 'modify') return {action: 'modify', input: {path: 'other.txt'}};
        return {action: 'allow'};
      },
    };
    const agent = createAgent(name, {
      ...(hooks === undefined ? {} : {hooks}),
      ...(structured ? {outputSchema: z.object({answer: z.string()})} : {}),
      onEvent(event) {
        events.push(event.type === 'tool.end' ? event.type + ':' + event.ok + ':' + (event.decision ?? '') : event.type);
        if (event.type === 'tool.start' && event.call.nativeName === cancelOnTool) agent.cancel();
      },
    });
    const replies: unknown[] = [];
    try {
      for (const prompt of prompts) replies.push(await agent.execute(prompt));
      return {replies, events, calls, error: null};
    } catch (error) {
      const failure = error as {code?: unknown; message?: unknown};
      return {replies, events, calls, error: {code: String(failure.code), message: String(failure.message)}};
    }
  },
});
`;
