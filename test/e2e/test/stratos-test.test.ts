// `stratos test` through the real CLI: the examples' cases pass; failing cases (wrong output, unscripted call,
// unused agent and MCP scripts, expected error not raised, unexpected error) each get their report; scripted MCP servers are
// matched by tool and arguments; the readable report shows the diff.
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const filesystemServer = join(
  repository,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
let home: string;
let project: TempProject;

const drafter = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({topic: z.string().describe('Topic')}),
  output: z.object({title: z.string().describe('Title'), words: z.number().describe('Words in the title')}),
  async run({topic}) {
    if (topic === 'boom') throw new Error('the topic is explosive');
    const writer = createAgent('writer', {
      outputSchema: z.object({title: z.string().describe('Title')}),
      hooks: {
        onComplete: ({output}) => {
          if ((output as {title: string}).title === 'forbidden') throw new Error('that title is forbidden');
        },
      },
    });
    const {title} = await writer.execute(\`Write a title about \${topic}.\`);
    return {title, words: title.split(' ').length};
  },
});
`;

const lister = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createFiles from './generated/mcp/files.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({root: z.string().describe('Root'), entries: z.array(z.string()).describe('Entries')}),
  async run() {
    const files = await createFiles();
    const root = (await files.list_allowed_directories({})).structuredContent.content.split('\\n')[1] ?? '';
    const listing = await files.list_directory({path: root});
    return {root, entries: listing.structuredContent.content.split('\\n')};
  },
});
`;

const pair = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createDrafter from '../.generated/drafter.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({titles: z.array(z.string()).describe('Titles')}),
  async run() {
    const drafter = createDrafter();
    const tea = await drafter.execute({topic: 'tea'});
    const cake = await drafter.execute({topic: 'cake'});
    return {titles: [tea.title, cake.title]};
  },
});
`;

const allowed = (root: string) => ({
  tool: 'list_allowed_directories',
  arguments: {},
  result: {
    content: [{type: 'text', text: `Allowed directories:\n${root}`}],
    structuredContent: {content: `Allowed directories:\n${root}`},
  },
});
const listing = (path: string, text: string) => ({
  tool: 'list_directory',
  arguments: {path},
  result: {content: [{type: 'text', text}], structuredContent: {content: text}},
});
const writer = (prompt: string, title: string) => ({agent: 'writer', prompt, output: {title}});

before(async () => {
  home = await mkdtemp(join(tmpdir(), 'stratos-test-examples-'));
  project = await createTempProject('stratos-test-cli-');
  const agents = 'agents:\n  writer:\n    harness: claude-code\n    allowedMcps: []\n';
  const drafterDir = await project.writeWorkflow('drafter', {
    'workflow.yaml': manifest('drafter', agents),
    'workflow.ts': drafter,
  });
  const servers = `mcp:\n  servers:\n    files:\n      type: stdio\n      command: node\n      args: [${JSON.stringify(filesystemServer)}, ${JSON.stringify(project.cwd)}]\n`;
  const listerDir = await project.writeWorkflow('lister', {
    'workflow.yaml': manifest('lister', servers),
    'workflow.ts': lister,
  });
  const pairDir = await project.writeWorkflow('pair', {
    'workflow.yaml': manifest('pair'),
    'workflow.ts': pair,
  });
  const inChild = (prompt: string, title: string) => ({...writer(prompt, title), workflow: 'drafter'});
  const cases: Record<string, [string, unknown]> = {
    'hook-runs': [
      drafterDir,
      {input: {topic: 'tea'}, error: 'STRATOS_AGENT_HOOK_FAILED', agents: [writer('tea', 'forbidden')]},
    ],
    children: [
      pairDir,
      {output: {titles: ['Tea', 'Cake']}, agents: [inChild('cake', 'Cake'), inChild('tea', 'Tea')]},
    ],
    passes: [
      drafterDir,
      {
        input: {topic: 'tea'},
        output: {title: 'All about tea', words: 3},
        agents: [writer('about tea', 'All about tea')],
      },
    ],
    'wrong-output': [
      drafterDir,
      {
        input: {topic: 'tea'},
        output: {title: 'Tea time', words: 2},
        agents: [writer('tea', 'All about tea')],
      },
    ],
    'missing-script': [drafterDir, {input: {topic: 'coffee'}, match: {words: 1}}],
    'unused-script': [
      drafterDir,
      {
        input: {topic: 'tea'},
        match: {words: 3},
        agents: [writer('tea', 'All about tea'), writer('cake', 'Cake')],
      },
    ],
    'error-not-raised': [
      drafterDir,
      {input: {topic: 'tea'}, error: 'STRATOS_RUN_FAILED', agents: [writer('tea', 'All about tea')]},
    ],
    'raises-expected': [drafterDir, {input: {topic: 'boom'}, error: 'STRATOS_RUN_FAILED'}],
    'raises-unexpected': [drafterDir, {input: {topic: 'boom'}, match: {}}],
    'invalid-reply': [
      drafterDir,
      {
        input: {topic: 'tea'},
        error: 'STRATOS_AGENT_OUTPUT_INVALID',
        agents: [{agent: 'writer', output: {name: 'no title'}}],
      },
    ],
    'lists-root': [
      listerDir,
      {
        output: {root: '/data', entries: ['[DIR] a', '[FILE] b.txt']},
        mcp: {files: [allowed('/data'), listing('/data', '[DIR] a\n[FILE] b.txt')]},
      },
    ],
    'unexpected-call': [listerDir, {match: {}, mcp: {files: [allowed('/data'), listing('/elsewhere', '')]}}],
    'unused-tool': [
      listerDir,
      {match: {}, mcp: {files: [allowed('/data'), listing('/data', '[FILE] b.txt'), listing('/other', '')]}},
    ],
  };
  for (const [name, [directory, content]] of Object.entries(cases)) {
    await project.write(
      join(directory, 'tests', `${name}.json`).slice(project.cwd.length + 1),
      JSON.stringify(content),
    );
  }
});

after(async () => {
  await project?.remove();
  await rm(home, {recursive: true, force: true});
});

test("the repo-outline example's case passes with its filesystem server scripted", async () => {
  const result = await runCli(['test', './examples/repo-outline', '--json'], {
    cwd: repository,
    env: {STRATOS_HOME: home, CI: '1'},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(result.json.data.summary.passed, result.json.data.summary.total);
  const report = result.json.data.cases.find((c: {case: string}) => c.case === 'docs-folder');
  assert.equal(report.status, 'passed');
  assert.deepEqual(report.output.folder, '/repo/docs');
});

test("the triage example's cases pass with their decisions scripted, no Ollama server needed", async () => {
  const result = await runCli(['test', './examples/triage', '--json'], {
    cwd: repository,
    // An endpoint where nothing listens: a decision that reached a model would fail.
    env: {STRATOS_HOME: home, CI: '1', OLLAMA_HOST: 'http://127.0.0.1:9'},
  });
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(
    result.json.data.cases.map((c: {case: string; status: string}) => [c.case, c.status]),
    [
      ['outage', 'passed'],
      ['unsure', 'passed'],
    ],
  );
});

test("the commit-message example's case passes from a folder that is no Git repository, with no model", async () => {
  const work = await mkdtemp(join(tmpdir(), 'stratos-test-commit-'));
  try {
    const result = await runCli(['test', join(repository, 'examples/commit-message'), '--json'], {
      cwd: work,
      env: {STRATOS_HOME: home, CI: '1', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9'},
    });
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    const report = result.json.data.cases.find((c: {case: string}) => c.case === 'staged-greeting');
    assert.equal(report.status, 'passed');
    assert.deepEqual(report.output.files, ['greet.ts']);
  } finally {
    await rm(work, {recursive: true, force: true});
  }
});

test('each failing case gets its own report; the command exits 1', async () => {
  const result = await project.cli(['test', '--json']);
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  assert.equal(result.json.ok, false);
  assert.equal(result.json.error.code, 'STRATOS_TEST_CASES_FAILED');
  const cases = new Map<
    string,
    {status: string; problems: {code: string; message: string}[]; diff: string[]}
  >(result.json.error.details.cases.map((c: {case: string}) => [c.case, c]));
  const at = (name: string) => {
    const report = cases.get(name);
    assert.ok(report, `case ${name} is reported`);
    return report;
  };
  assert.equal(at('passes').status, 'passed');
  assert.equal(at('hook-runs').status, 'passed', JSON.stringify(at('hook-runs')));
  assert.equal(at('children').status, 'passed', JSON.stringify(at('children')));
  assert.equal(at('raises-expected').status, 'passed');
  assert.equal(at('invalid-reply').status, 'passed', JSON.stringify(at('invalid-reply')));
  assert.equal(at('lists-root').status, 'passed', JSON.stringify(at('lists-root')));

  const wrong = at('wrong-output');
  assert.equal(wrong.status, 'failed');
  assert.deepEqual(wrong.diff, [
    'output.title: expected "Tea time", got "All about tea"',
    'output.words: expected 2, got 3',
  ]);

  const missing = at('missing-script');
  assert.equal(missing.status, 'failed');
  assert.equal(missing.problems[0]?.code, 'STRATOS_TEST_CALL_UNSCRIPTED');
  assert.match(
    missing.problems[0]!.message,
    /Agent 'writer' of workflow 'drafter'.*"Write a title about coffee\."/,
  );

  const unused = at('unused-script');
  assert.equal(unused.status, 'failed');
  assert.deepEqual(
    unused.problems.map((p) => p.code),
    ['STRATOS_TEST_SCRIPT_UNUSED'],
  );
  assert.match(unused.problems[0]!.message, /agent 'writer' to a prompt containing "cake"/);

  const notRaised = at('error-not-raised');
  assert.equal(notRaised.status, 'failed');
  assert.match(notRaised.problems[0]!.message, /expects error STRATOS_RUN_FAILED, but the run succeeded/);

  const unexpected = at('raises-unexpected');
  assert.equal(unexpected.status, 'errored');
  assert.equal(unexpected.problems[0]?.code, 'STRATOS_RUN_FAILED');
  assert.match(unexpected.problems[0]!.message, /explosive/);

  const call = at('unexpected-call');
  assert.equal(call.status, 'failed');
  assert.equal(call.problems[0]?.code, 'STRATOS_TEST_CALL_UNSCRIPTED');
  assert.match(call.problems[0]!.message, /MCP tool 'list_directory' of server 'files'.*\{"path":"\/data"\}/);
  assert.equal(call.problems.length, 1, 'the unused script after an unscripted call is not reported twice');

  const tool = at('unused-tool');
  assert.equal(tool.status, 'failed');
  assert.deepEqual(
    tool.problems.map((p) => p.code),
    ['STRATOS_TEST_SCRIPT_UNUSED'],
  );
  assert.match(
    tool.problems[0]!.message,
    /MCP tool 'list_directory' of server 'files' with arguments \{"path":"\/other"\}/,
  );
});

test('the readable report names each case, shows the diff and exits 1', async () => {
  const result = await project.cli(['test', 'drafter']);
  assert.equal(result.exitCode, 1);
  assert.match(result.stdout + result.stderr, /PASS {2}drafter\/passes/);
  assert.match(result.stderr, /FAIL {2}drafter\/wrong-output/);
  assert.match(result.stderr, /output\.title: expected "Tea time", got "All about tea"/);
  assert.match(result.stderr, /ERROR drafter\/raises-unexpected/);
  assert.match(result.stderr, /STRATOS_TEST_CASES_FAILED: 9 cases: 4 passed, 4 failed, 1 errored/);
});

test('a workflow without cases is an error naming where cases go', async () => {
  await project.writeWorkflow('empty', {
    'workflow.yaml': manifest('empty'),
    'workflow.ts':
      "import {workflow} from '@stratoscli/stratos';\nimport {z} from 'zod';\nexport default workflow({input: z.strictObject({}), output: z.object({}), run: () => ({})});\n",
  });
  const result = await project.cli(['test', 'empty', '--json']);
  assert.equal(result.exitCode, 1);
  assert.equal(result.json.error.code, 'STRATOS_TEST_NO_CASES');
  assert.match(result.json.error.message, /empty\/tests\/<case>\.yaml/);
});
