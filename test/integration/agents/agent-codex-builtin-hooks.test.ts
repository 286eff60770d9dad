// A before-tool hook sees Codex's own shell through Codex's native PreToolUse command hook: the real CLI runs the
// real codex binary against a scripted OpenAI Responses server that asks for a shell command creating a marker file.
// A denied command never runs; a modified one fails the execution (Codex cannot run changed input); web_search,
// which no Codex hook sees, makes createAgent refuse a before-tool hook until it is removed.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, afterEach, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {
  builtinHookManifest,
  builtinHookWorkflow,
  shellPromptPrefix,
} from '../../servers/models/builtin-hook-workflow.ts';
import {createHarnessHome, type HarnessHome, survivingProcesses} from '../../servers/models/harness-env.ts';
import {type ResponsesTurn, startResponsesServer} from '../../servers/models/openai-responses.ts';

let server: Awaited<ReturnType<typeof startResponsesServer>>;
let project: TempProject;
let home: HarnessHome;

/** A prompt `SHELL <marker>` asks for `touch <marker>`; with the command's output the model repeats it. */
function reply(turn: ResponsesTurn) {
  const result = turn.toolResults[0];
  if (result !== undefined) return {text: `the shell said: ${result.output}`};
  if (!turn.userText.includes(shellPromptPrefix)) return {text: 'nothing to do'};
  if (!turn.toolNames.includes('exec_command'))
    return {text: `TOOL NOT OFFERED: exec_command; offered: ${turn.toolNames.join(', ')}`};
  const marker = turn.userText
    .slice(turn.userText.indexOf(shellPromptPrefix) + shellPromptPrefix.length)
    .trim();
  return {toolCall: {name: 'exec_command', arguments: {cmd: `touch ${marker}`}}};
}

before(async () => {
  server = await startResponsesServer(reply);
  home = await createHarnessHome({openaiUrl: server.url});
  project = await createTempProject('stratos-codex-builtin-hooks-');
  await project.writeWorkflow('builtin-hooks', {
    'workflow.yaml': builtinHookManifest('codex', '[web search]'),
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

afterEach(async () => {
  assert.deepEqual(await survivingProcesses(home.marker), [], 'a codex process or the CLI outlived its run');
});

async function run(scenario: string, marker: string) {
  const input = JSON.stringify({scenario, marker});
  const result = await project.cli(['run', 'builtin-hooks', '--json', '--input', input], {env: home.env});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  return JSON.parse(result.json.data.output.result);
}

test('a denied shell command does not run; the hook saw it as shell/bash and the model got the feedback', async () => {
  const marker = join(project.cwd, 'denied-marker');
  const {result, seen} = await run('deny', marker);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(existsSync(marker), false, 'the denied command did not run');
  const shell = seen.find((call: {canonicalName?: string}) => call.canonicalName === 'bash');
  assert.ok(shell, `the hook saw the shell call: ${JSON.stringify(seen)}`);
  assert.equal(shell.nativeName, 'shell');
  assert.equal(shell.input.command, `touch ${marker}`);
  const answered = server
    .turns()
    .find((turn) => turn.toolResults.some((r) => r.output.includes('SHELL-DENIED-BY-HOOK')));
  assert.ok(answered, 'the model received the feedback as the tool result');
});

test('a modify decision for the shell fails the execution and the original command does not run', async () => {
  const marker = join(project.cwd, 'modified-marker');
  const {result} = await run('modify', marker);
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_AGENT_HOOK_FAILED');
  assert.match(result.error.message, /cannot run its built-in tool 'shell' with changed input/);
  assert.equal(existsSync(marker), false, 'neither the original nor a changed command ran');
});

test('a before-tool hook with web_search enabled is refused at createAgent with the disallowedTools fix', async () => {
  const before = server.requests.length;
  const {result} = await run('unguarded', join(project.cwd, 'never'));
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'STRATOS_AGENT_HOOK_UNGUARDED');
  assert.match(result.error.message, /web_search/);
  assert.match(result.error.message, /disallowedTools: \['web search'\]/);
  assert.equal(server.requests.length, before, 'nothing reached the model');
});
