/**
 * One test workflow for before-tool hooks on a harness's built-in tools: the scripted model asks for a shell
 * command that creates a marker file (prompt `SHELL <marker>`). `guarded` keeps only built-in tools its harness
 * lets the hook see; `open` keeps every built-in tool. Results and caught errors come back as JSON text.
 */
import {manifest} from '../../helpers/temp-project.ts';

/** The prompt the scripted model servers answer with a shell call creating `marker`. */
export const shellPromptPrefix = 'SHELL ';

export function builtinHookManifest(harness: 'claude-code' | 'codex' | 'opencode', guarded: string): string {
  const model =
    harness === 'codex'
      ? '\n    model: gpt-test'
      : harness === 'opencode'
        ? '\n    model: openai/gpt-test'
        : '';
  return manifest(
    'builtin-hooks',
    `agents:
  guarded:
    harness: ${harness}${model}${guarded === '' ? '' : `\n    disallowedTools: ${guarded}`}
  open:
    harness: ${harness}${model}
`,
  );
}

export const builtinHookWorkflow = `import {createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const failure = (error: unknown) => ({
  code: isStratosError(error) ? error.code : 'not-a-stratos-error',
  message: (error as Error).message,
  cause: (error as {cause?: unknown}).cause instanceof Error ? ((error as {cause: Error}).cause.message) : undefined,
});

async function attempt<T>(fn: () => Promise<T>) {
  try {
    return {ok: true, value: await fn()};
  } catch (error) {
    return {ok: false, error: failure(error)};
  }
}

export default workflow({
  input: z.strictObject({
    scenario: z.string().describe('deny, modify or unguarded'),
    marker: z.string().describe('The file the shell command would create'),
  }),
  output: z.object({result: z.string().describe('The scenario result as JSON text')}),
  async run({scenario, marker}) {
    const seen: unknown[] = [];
    const prompt = '${shellPromptPrefix}' + marker;
    const isShell = (call: {canonicalName?: string}) => call.canonicalName === 'bash';
    let result: unknown;
    switch (scenario) {
      case 'deny':
        result = await attempt(() =>
          createAgent('guarded', {
            hooks: {
              beforeTool: (call) => {
                seen.push(call);
                return isShell(call) ? {action: 'deny', feedback: 'SHELL-DENIED-BY-HOOK'} : undefined;
              },
            },
          }).execute(prompt),
        );
        break;
      case 'modify':
        result = await attempt(() =>
          createAgent('guarded', {
            hooks: {
              beforeTool: (call) => {
                seen.push(call);
                return isShell(call) ? {action: 'modify', input: {...call.input}} : undefined;
              },
            },
          }).execute(prompt),
        );
        break;
      case 'unguarded':
        result = await attempt(async () => createAgent('open', {hooks: {beforeTool: () => undefined}}));
        break;
      default:
        throw new Error('unknown scenario ' + scenario);
    }
    return {result: JSON.stringify({result, seen})};
  },
});
`;
