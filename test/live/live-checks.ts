/**
 * The opt-in live suite (`npm run test:live`, never part of `npm test`): each target runs a real harness against
 * its real provider when the credentials are in the environment, and otherwise skips every check with the reason.
 * The checks: an actual tool effect (a file the agent writes with its own tool, and a call to a workflow-defined
 * MCP server), structured output, conversation continuation, and owned-resource cleanup (no harness or MCP
 * process outlives the runs).
 */
import assert from 'node:assert/strict';
import {randomBytes} from 'node:crypto';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../servers/mcp/index.ts';
import {survivingProcesses} from '../servers/models/harness-env.ts';

export interface LiveTarget {
  /** Test-name prefix, such as `codex (azure)`. */
  label: string;
  harness: 'claude-code' | 'codex' | 'opencode';
  provider?: string;
  model?: string;
  /** Why the target cannot run here (missing credentials, no server), or undefined when it can. */
  unavailable: string | undefined;
  /** Variables the runs need beyond the developer's environment (a provider key under another name). */
  env?: Record<string, string>;
}

/** The names of the checks, in the order they run: the live suite's test reports them under these names. */
export const liveChecks = [
  'a tool call has its actual effect',
  'structured output comes back as a validated object',
  'a second execute continues the conversation',
  'no harness or MCP process outlives the runs',
] as const;

const liveWorkflow = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

async function check(name: string, token: string): Promise<unknown> {
  switch (name) {
    case 'tool-effect':
      return createAgent('live').execute(
        'Do two things with your tools, then answer DONE. 1) Create a file named live-check.txt in the current directory whose whole content is ' +
          token +
          ' (no newline). 2) Call the echo tool of the counter MCP server with text ' + token + '.',
      );
    case 'structured':
      return createAgent('live', {
        allowedMcps: [],
        outputSchema: z.object({sum: z.number().describe('The sum')}),
      }).execute('What is 17 + 25? Give the sum.');
    case 'continue': {
      const agent = createAgent('live', {allowedMcps: []});
      await agent.execute('Remember this code word: ' + token + '. Reply with OK only.');
      return agent.execute('What was the code word I gave you? Reply with the word only.');
    }
    default:
      throw new Error('unknown check ' + name);
  }
}

export default workflow({
  input: z.strictObject({
    check: z.string().describe('Which check to run'),
    token: z.string().describe('A fresh word the check looks for'),
  }),
  output: z.object({result: z.string().describe('The check result as JSON text')}),
  async run({check: name, token}) {
    return {result: JSON.stringify(await check(name, token))};
  },
});
`;

/** Defines the live checks of one target; each is skipped, with the reason, when the target cannot run. */
export function defineLiveChecks(target: LiveTarget): void {
  const marker = randomBytes(6).toString('hex');
  let project: TempProject;
  let callLog: string;
  const skip = target.unavailable === undefined ? {} : {skip: target.unavailable};
  const name = (check: (typeof liveChecks)[number]) => `${target.label}: ${check}`;

  const run = async (check: string, token: string) => {
    const result = await project.cli(['run', 'live', '--json', '--input', JSON.stringify({check, token})], {
      env: {...target.env, HARNESS_TEST_MARKER: marker},
    });
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    return JSON.parse(result.json.data.output.result);
  };

  before(async () => {
    if (target.unavailable !== undefined) return;
    project = await createTempProject(`stratos-live-${target.harness}-`);
    // The developer's own home: a native login (a Claude subscription) is part of what is checked.
    delete project.env.HOME;
    callLog = join(project.home, 'mcp-calls.jsonl');
    const agent = [
      `    harness: ${target.harness}`,
      target.provider === undefined ? '' : `    provider: ${target.provider}`,
      target.model === undefined ? '' : `    model: ${JSON.stringify(target.model)}`,
      '    allowedMcps: [counter]',
    ].filter(Boolean);
    await project.writeWorkflow('live', {
      'workflow.yaml': manifest(
        'live',
        `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
      env:
        STRATOS_TEST_CALL_LOG: ${JSON.stringify(callLog)}
agents:
  live:
${agent.join('\n')}
`,
      ),
      'workflow.ts': liveWorkflow,
    });
    const build = await project.cli(['build', 'live', '--json']);
    assert.equal(build.exitCode, 0, build.stdout + build.stderr);
  });

  after(async () => {
    await project?.remove();
  });

  test(name('a tool call has its actual effect'), skip, async () => {
    const token = `live${randomBytes(4).toString('hex')}`;
    await run('tool-effect', token);
    assert.equal((await readFile(join(project.cwd, 'live-check.txt'), 'utf8')).trim(), token);
    const calls = (await readFile(callLog, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(
      calls.some((call) => call.tool === 'echo' && call.arguments?.text === token),
      'the counter MCP server recorded the echo call',
    );
  });

  test(name('structured output comes back as a validated object'), skip, async () => {
    assert.deepEqual(await run('structured', 'unused'), {sum: 42});
  });

  test(name('a second execute continues the conversation'), skip, async () => {
    const token = `word${randomBytes(3).toString('hex')}`;
    assert.match(await run('continue', token), new RegExp(token, 'i'));
  });

  test(name('no harness or MCP process outlives the runs'), skip, async () => {
    await run('structured', 'unused');
    assert.deepEqual(await survivingProcesses(marker, 10_000), []);
  });
}

/** Whether `variables` are all set; else the skip reason naming the missing ones. */
export function missingVariables(variables: readonly string[], purpose: string): string | undefined {
  const missing = variables.filter((name) => (process.env[name] ?? '') === '');
  return missing.length === 0 ? undefined : `${purpose}: ${missing.join(', ')} not set`;
}
