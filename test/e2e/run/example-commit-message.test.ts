// The commit-message example with the real Claude Code binary against a scripted Anthropic server: the workflow
// reads the staged diff with git, the agent's request carries it, and the structured answer comes back.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {cp, mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {
  type AnthropicServer,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';

const example = fileURLToPath(new URL('../../../examples/commit-message', import.meta.url));
let server: AnthropicServer;
let home: HarnessHome;
let project: TempProject;

before(async () => {
  server = await startAnthropicServer((turn) => {
    if (!isMainTurn(turn)) return {text: 'side'};
    if (resultOf(turn, 'StructuredOutput')) return {text: 'done'};
    const subject = turn.lastText.includes('greet.ts') ? 'Add a greeting helper' : 'Unexpected prompt';
    return toolCall(turn, 'StructuredOutput', {subject, body: 'Adds greet(), which returns a hello line.'});
  });
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-example-commit-');
  await cp(example, join(project.projectRoot, 'commit-message'), {
    recursive: true,
    filter: (source) => !/[\\/](dist|generated|node_modules)$/.test(source),
  });
  const git = (...args: string[]) =>
    execFileSync('git', args, {cwd: project.cwd, env: {...process.env, ...home.env}});
  await mkdir(project.cwd, {recursive: true});
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'start');
  await writeFile(
    join(project.cwd, 'greet.ts'),
    "export const greet = (name: string) => 'Hello, ' + name + '!';\n",
  );
  git('add', 'greet.ts');
});

after(async () => {
  await server?.close();
  await project?.remove();
  await home?.remove();
});

test('drafts a message for the staged change; the request carries the diff and the system prompt', async () => {
  const result = await project.cli(['run', 'commit-message', '--json'], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(result.json.data.output, {
    subject: 'Add a greeting helper',
    body: 'Adds greet(), which returns a hello line.',
    files: ['greet.ts'],
  });
  const turn = server.turns().find((t) => isMainTurn(t) && t.lastText.includes('Staged files'));
  assert.ok(turn, 'the agent request reached the model');
  assert.match(turn.lastText, /\+export const greet/);
  assert.match(turn.systemText, /You write Git commit messages/);
  assert.ok(!turn.toolNames.includes('Bash') && !turn.toolNames.includes('Write'), 'write tools are removed');
  assert.deepEqual(await survivingProcesses(home.marker), []);
});
