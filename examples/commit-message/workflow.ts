import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {createAgent, currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const run = promisify(execFile);

const message = z.object({
  subject: z.string().max(72).describe('Subject line, imperative mood, no trailing period'),
  body: z.string().describe('Body text wrapped at 72 columns; may be empty'),
});

export default workflow({
  input: z.strictObject({
    style: z.enum(['plain', 'conventional']).default('plain').describe('Subject style'),
    diff: z
      .string()
      .optional()
      .describe('A unified diff (git diff output) to describe instead of the staged change'),
  }),
  output: z.object({
    subject: z.string().describe('Subject line; empty when nothing is staged'),
    body: z.string().describe('Body text, or why there is no message'),
    files: z.array(z.string()).describe('The staged paths the message describes'),
  }),
  async run({style, diff: given}) {
    // Ordinary code does what needs no judgment: reading the change.
    const cwd = currentExecution().invocationDirectory;
    const git = async (...args: string[]) =>
      (await run('git', args, {cwd, maxBuffer: 16 * 1024 * 1024})).stdout;
    const files =
      given === undefined
        ? (await git('diff', '--staged', '--name-only')).split('\n').filter((line) => line !== '')
        : filesOf(given);
    if (files.length === 0) return {subject: '', body: 'Nothing is staged: run git add first.', files};
    const diff = given ?? (await git('diff', '--staged', '--no-color', '--unified=3'));

    // The agent supplies the judgment: one structured answer, validated against `message`.
    const writer = createAgent('writer', {outputSchema: message});
    const answer = await writer.execute(
      {template: 'prompts/request.hbs'},
      {conventional: style === 'conventional', files: files.join('\n'), diff: diff.slice(0, 60_000)},
    );
    return {...answer, files};
  },
});

/** The paths a unified diff changes, from its `diff --git a/<path> b/<path>` headers. */
function filesOf(diff: string): string[] {
  return [...diff.matchAll(/^diff --git a\/.+ b\/(.+)$/gm)].map((match) => match[1] as string);
}
