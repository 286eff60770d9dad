// `stratos test` with child workflows, through the real CLI: a child the case scripts is not run (its scripted
// output reaches the parent, or it fails with the scripted code), a scripted output its own output schema refuses
// fails the case even when the parent catches the failure, an unused child script and a call no child script
// matches fail naming the child and its input, and a child the case does not script runs for real.
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
let home: string;
let project: TempProject;
let counterDir: string;

// The child with an agent: if it ran in a case that scripts no agent, the call would be unscripted.
const drafter = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({topic: z.string().describe('Topic')}),
  output: z.object({title: z.string().describe('Title'), words: z.number().describe('Words in the title')}),
  async run({topic}) {
    const writer = createAgent('writer', {outputSchema: z.object({title: z.string().describe('Title')})});
    const {title} = await writer.execute(\`Write a title about \${topic}.\`);
    return {title, words: title.split(' ').length};
  },
});
`;

// A child without agents: never scripted here, so it always computes for real.
const counter = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text')}),
  output: z.object({letters: z.number().describe('Letters in the text')}),
  run: ({text}) => ({letters: text.replaceAll(' ', '').length}),
});
`;

const board = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createCounter from '../.generated/counter.js';
import createDrafter from '../.generated/drafter.js';

export default workflow({
  input: z.strictObject({topics: z.array(z.string()).describe('Topics')}),
  output: z.object({
    titles: z.array(z.string()).describe('Titles'),
    letters: z.array(z.number()).describe('Letters per title'),
    failures: z.array(z.string()).describe('Topics whose drafter failed, with the code'),
  }),
  async run({topics}) {
    const drafter = createDrafter();
    const counter = createCounter();
    const titles: string[] = [];
    const letters: number[] = [];
    const failures: string[] = [];
    for (const topic of topics) {
      try {
        const {title} = await drafter.execute({topic});
        titles.push(title);
        letters.push((await counter.execute({text: title})).letters);
      } catch (error) {
        const code = (error as {details?: {code?: string}}).details?.code;
        failures.push(\`\${topic}: \${code}\`);
      }
    }
    return {titles, letters, failures};
  },
});
`;

const drafted = (topic: string, title: string) => ({
  child: 'drafter',
  input: {topic},
  output: {title, words: title.split(' ').length},
});

before(async () => {
  home = await mkdtemp(join(tmpdir(), 'stratos-test-children-home-'));
  project = await createTempProject('stratos-test-children-');
  const agents = 'agents:\n  writer:\n    harness: claude-code\n    allowedMcps: []\n';
  await project.writeWorkflow('drafter', {
    'workflow.yaml': manifest('drafter', agents),
    'workflow.ts': drafter,
  });
  counterDir = await project.writeWorkflow('counter', {
    'workflow.yaml': manifest('counter'),
    'workflow.ts': counter,
  });
  const boardDir = await project.writeWorkflow('board', {
    'workflow.yaml': manifest('board'),
    'workflow.ts': board,
  });
  const cases: Record<string, unknown> = {
    'scripted-output': {
      input: {topics: ['tea', 'cake']},
      output: {titles: ['All about tea', 'Cake'], letters: [11, 4], failures: []},
      children: [drafted('cake', 'Cake'), drafted('tea', 'All about tea')],
    },
    'scripted-error': {
      input: {topics: ['tea']},
      output: {titles: [], letters: [], failures: ['tea: STRATOS_AGENT_OUTPUT_INVALID']},
      children: [{child: 'drafter', error: 'STRATOS_AGENT_OUTPUT_INVALID'}],
    },
    'runs-for-real': {
      input: {topics: ['tea']},
      output: {titles: ['Tea for two'], letters: [9], failures: []},
      agents: [{agent: 'writer', workflow: 'drafter', prompt: 'about tea', output: {title: 'Tea for two'}}],
    },
    'invalid-output': {
      input: {topics: ['tea']},
      match: {},
      children: [{child: 'drafter', input: {topic: 'tea'}, output: {title: 'Tea', words: 'one'}}],
    },
    'unused-child': {
      input: {topics: ['tea']},
      match: {},
      children: [drafted('tea', 'Tea'), drafted('cake', 'Cake')],
    },
    'unmatched-child': {
      input: {topics: ['coffee']},
      match: {},
      children: [drafted('tea', 'Tea')],
    },
    'unknown-code': {
      input: {topics: ['tea']},
      match: {},
      children: [{child: 'drafter', error: 'STRATOS_NO_SUCH_CODE'}],
    },
  };
  for (const [name, content] of Object.entries(cases)) {
    await project.write(
      join(boardDir, 'tests', `${name}.json`).slice(project.cwd.length + 1),
      JSON.stringify(content),
    );
  }
});

after(async () => {
  await project?.remove();
  await rm(home, {recursive: true, force: true});
});

test('scripted children answer from the case; unscripted ones run for real; wrong scripts fail naming the child', async () => {
  const result = await project.cli(['test', 'board', '--json'], {env: {ANTHROPIC_API_KEY: ''}});
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.equal(result.json.error.code, 'STRATOS_TEST_CASES_FAILED');
  type Report = {status: string; problems: {code: string; message: string}[]; diff: string[]};
  const cases = new Map<string, Report>(
    result.json.error.details.cases.map((c: {case: string}) => [c.case, c]),
  );
  const at = (name: string): Report => {
    const report = cases.get(name);
    assert.ok(report, `case ${name} is reported`);
    return report;
  };
  // The drafter's agent is scripted nowhere in these: had the child run, its agent call would be unscripted.
  assert.equal(at('scripted-output').status, 'passed', JSON.stringify(at('scripted-output')));
  assert.equal(at('scripted-error').status, 'passed', JSON.stringify(at('scripted-error')));
  assert.equal(at('runs-for-real').status, 'passed', JSON.stringify(at('runs-for-real')));

  const invalid = at('invalid-output');
  assert.equal(invalid.status, 'failed');
  assert.deepEqual(
    invalid.problems.map((p) => p.code),
    ['STRATOS_TEST_SCRIPT_INVALID'],
    'the parent caught the child failure, yet the case fails',
  );
  assert.match(invalid.problems[0]!.message, /child workflow 'drafter' \(called by 'board'\)/);
  assert.match(invalid.problems[0]!.message, /output schema \(words: [^)]*\)\. Fix/);

  const unused = at('unused-child');
  assert.equal(unused.status, 'failed');
  assert.deepEqual(
    unused.problems.map((p) => p.code),
    ['STRATOS_TEST_SCRIPT_UNUSED'],
  );
  assert.match(unused.problems[0]!.message, /child workflow 'drafter' with input \{"topic":"cake"\}/);

  const unmatched = at('unmatched-child');
  assert.equal(unmatched.status, 'failed');
  assert.equal(unmatched.problems[0]?.code, 'STRATOS_TEST_CALL_UNSCRIPTED');
  assert.match(
    unmatched.problems[0]!.message,
    /Child workflow 'drafter' was called by 'board' with input \{"topic":"coffee"\}/,
  );
  assert.equal(unmatched.problems.length, 1);

  const unknown = at('unknown-code');
  assert.equal(unknown.status, 'errored');
  assert.equal(unknown.problems[0]?.code, 'STRATOS_TEST_CASE_INVALID');
  assert.match(unknown.problems[0]!.message, /children/);
});

test('an edited child is rebuilt before the next stratos test, and the unscripted child runs the new code', async () => {
  await writeFile(join(counterDir, 'workflow.ts'), counter.replace(".replaceAll(' ', '')", ''));
  const result = await project.cli(['test', 'board', '--json'], {env: {ANTHROPIC_API_KEY: ''}});
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const report = result.json.error.details.cases.find((c: {case: string}) => c.case === 'scripted-output');
  assert.equal(report.status, 'failed');
  assert.deepEqual(report.diff, ['output.letters[0]: expected 11, got 13']);
});

test("the review-batch example's cases pass: pr-review for real, and pr-review scripted", async () => {
  const result = await runCli(['test', './examples/review-batch', '--json'], {
    cwd: repository,
    env: {STRATOS_HOME: home, CI: '1'},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(
    result.json.data.cases.map((c: {case: string; status: string}) => [c.case, c.status]),
    [
      ['children-for-real', 'passed'],
      ['scripted-review', 'passed'],
    ],
  );
  const scripted = result.json.data.cases[1];
  assert.deepEqual(scripted.output.summaries, ['Looks good: org/repo#41']);
});
