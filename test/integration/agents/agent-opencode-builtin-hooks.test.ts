// OpenCode runs its built-in tools itself: tool hooks reach it only through the MCP hook bridge, which no built-in
// tool passes through. So a before-tool hook is refused at createAgent while any built-in tool is enabled, naming
// the tools and the disallowedTools fix; with them removed, the real opencode binary against a scripted chat
// completions server that asks for a shell command creating a marker file has no shell to run it with.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {
  builtinHookManifest,
  builtinHookWorkflow,
  shellPromptPrefix,
} from '../../servers/models/builtin-hook-workflow.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ChatReply, type ChatTurn, startChatServer} from '../../servers/models/openai-chat.ts';

const builtins = ['bash', 'edit', 'glob', 'grep', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'write'];

let server: Awaited<ReturnType<typeof startChatServer>>;
let project: TempProject;
let home: HarnessHome;

/** A prompt `SHELL <marker>` asks for `touch <marker>` through bash, when bash is offered. */
function reply(turn: ChatTurn): ChatReply {
  const result = turn.toolResults[0];
  if (result !== undefined) return {text: `the shell said: ${result.output}`};
  if (!turn.userText.includes(shellPromptPrefix)) return {text: 'A title'};
  if (!turn.toolNames.includes('bash'))
    return {text: `TOOL NOT OFFERED: bash; offered: ${turn.toolNames.join(', ')}`};
  const marker = turn.userText
    .slice(turn.userText.indexOf(shellPromptPrefix) + shellPromptPrefix.length)
    .trim();
  return {
    toolCall: {name: 'bash', arguments: {command: `touch ${marker}`, description: 'Create the marker'}},
  };
}

before(async () => {
  server = await startChatServer(reply);
  home = await createHarnessHome({openaiUrl: server.url}, {xdg: true});
  project = await createTempProject('stratos-opencode-builtin-hooks-');
  await project.writeWorkflow('builtin-hooks', {
    'workflow.yaml': builtinHookManifest('opencode', `[${builtins.join(', ')}]`),
    'workflow.ts': builtinHookWorkflow,
  });
  const build = await project.cli(['build', 'builtin-hooks', '--json'], {env: home.env});
  assert.equal(build.exitCode, 0, build.stdout + build.stderr);
});

after(async () => {
  await server?.close();
  await project?.remove();
  await home?.remove();
});

async function run(scenario: string, marker: string) {
  const input = JSON.stringify({scenario, marker});
  const result = await project.cli(['run', 'builtin-hooks', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  return JSON.parse(result.json.data.output.result);
}

test('a before-tool hook with built-in tools enabled is refused at createAgent, naming them and the fix', async () => {
  const before = server.requests.length;
  const {result} = await run('unguarded', join(project.cwd, 'never'));
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_AGENT_HOOK_UNGUARDED');
  for (const tool of builtins) assert.match(result.error.message, new RegExp(`\\b${tool}\\b`));
  assert.match(result.error.message, /disallowedTools: \[/);
  assert.equal(server.requests.length, before, 'nothing reached the model');
});

test('with the built-in tools removed the hooked agent runs, and the shell command cannot run', async () => {
  const marker = join(project.cwd, 'denied-marker');
  const {result} = await run('deny', marker);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.match(result.value, /TOOL NOT OFFERED: bash/);
  assert.equal(existsSync(marker), false, 'no shell command ran');
  assert.deepEqual(await survivingProcesses(home.marker), [], 'an opencode process outlived its run');
});
