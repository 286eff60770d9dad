// `stratos runs record`: a real run of the commit-message example (the real Claude Code binary against the
// scripted Anthropic server) becomes a case, which then replays to the same output with no model at all.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {cp, mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {parse} from 'yaml';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome} from '../../servers/models/harness-env.ts';

const example = fileURLToPath(new URL('../../../examples/commit-message', import.meta.url));
let server: AnthropicServer;
let home: HarnessHome;
let project: TempProject;

before(async () => {
  server = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    if (resultOf(turn, 'StructuredOutput')) return {text: 'done'};
    return toolCall(turn, 'StructuredOutput', {subject: 'Add a greeting helper', body: 'Adds greet().'});
  });
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-test-record-');
  await cp(example, join(project.projectRoot, 'commit-message'), {
    recursive: true,
    filter: (source) => !/[\\/](dist|generated|node_modules|tests)$/.test(source),
  });
  const git = (...args: string[]) =>
    execFileSync('git', args, {cwd: project.cwd, env: {...process.env, ...home.env}});
  await mkdir(project.cwd, {recursive: true});
  git('init', '-q');
  await writeFile(join(project.cwd, 'greet.ts'), 'export const greet = () => "hello";\n');
  git('add', 'greet.ts');
});

after(async () => {
  await server?.close();
  await project?.remove();
  await home?.remove();
});

test('a recorded run replays to the same output without the model', async () => {
  const run = await project.cli(['run', 'commit-message', '--json'], {env: home.env});
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  const turns = server.turns().length;

  const recorded = await project.cli(
    ['runs', 'record', run.json.data.executionId, '--case', 'greeting', '--json'],
    {env: home.env},
  );
  assert.equal(recorded.exitCode, 0, recorded.stdout + recorded.stderr);
  assert.deepEqual(recorded.json.data.needsValue, []);
  const file = join(project.projectRoot, 'commit-message', 'tests', 'greeting.yaml');
  assert.equal(recorded.json.data.file, file);
  const saved = parse(await readFile(file, 'utf8'));
  assert.deepEqual(saved.output, run.json.data.output);
  assert.equal(saved.agents.length, 1);
  assert.equal(saved.agents[0].agent, 'writer');
  assert.match(saved.agents[0].prompt, /^Write the commit message/);
  assert.deepEqual(saved.agents[0].output, {subject: 'Add a greeting helper', body: 'Adds greet().'});

  // Replayed with the model server's address gone from the environment: only the case answers.
  const replay = await project.cli(['test', 'commit-message', '--json'], {env: {ANTHROPIC_API_KEY: ''}});
  assert.equal(replay.exitCode, 0, replay.stdout + replay.stderr);
  assert.equal(replay.json.data.cases[0].status, 'passed');
  assert.deepEqual(replay.json.data.cases[0].output, run.json.data.output);
  assert.equal(server.turns().length, turns, 'the replay sent nothing to the model server');

  const again = await project.cli(
    ['runs', 'record', run.json.data.executionId, '--case', 'greeting', '--json'],
    {
      env: home.env,
    },
  );
  assert.equal(again.exitCode, 1);
  assert.equal(again.json.error.code, 'STRATOS_TEST_CASE_EXISTS');
});
