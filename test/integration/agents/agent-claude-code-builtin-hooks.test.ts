// A before-tool hook sees Claude Code's built-in tools through its native PreToolUse hook: the real CLI runs the
// real claude binary against a scripted Anthropic server that asks for a Bash command creating a marker file. A
// denied command never runs, and no built-in tool is out of the hook's sight, so createAgent accepts every tool.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';
import {
  type AnthropicReply,
  type AnthropicTurn,
  isMainTurn,
  resultOf,
  startAnthropicServer,
  toolCall,
} from '../../servers/models/anthropic.ts';
import {
  builtinHookManifest,
  builtinHookWorkflow,
  shellPromptPrefix,
} from '../../servers/models/builtin-hook-workflow.ts';
import {createHarnessHome, type HarnessHome} from '../../servers/models/harness-env.ts';

let server: Awaited<ReturnType<typeof startAnthropicServer>>;
let project: TempProject;
let home: HarnessHome;

/** A prompt `SHELL <marker>` asks for `touch <marker>`; with the command's result the model repeats it. */
function reply(turn: AnthropicTurn): AnthropicReply {
  if (!isMainTurn(turn)) return {text: 'side request'};
  const result = resultOf(turn, 'Bash');
  if (result !== undefined) return {text: `the shell said: ${result.content}`};
  if (!turn.lastText.includes(shellPromptPrefix)) return {text: 'nothing to do'};
  const marker = turn.lastText
    .slice(turn.lastText.indexOf(shellPromptPrefix) + shellPromptPrefix.length)
    .trim();
  return toolCall(turn, 'Bash', {command: `touch ${marker}`, description: 'Create the marker'});
}

before(async () => {
  server = await startAnthropicServer(reply);
  home = await createHarnessHome({anthropicUrl: server.url});
  project = await createTempProject('stratos-claude-builtin-hooks-');
  await project.writeWorkflow('builtin-hooks', {
    'workflow.yaml': builtinHookManifest('claude-code', ''),
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

test('a denied Bash command does not run; the hook saw it as Bash/bash and the model got the feedback', async () => {
  const marker = join(project.cwd, 'denied-marker');
  const {result, seen} = await run('deny', marker);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(existsSync(marker), false, 'the denied command did not run');
  const shell = seen.find((call: {canonicalName?: string}) => call.canonicalName === 'bash');
  assert.ok(shell, `the hook saw the Bash call: ${JSON.stringify(seen)}`);
  assert.equal(shell.nativeName, 'Bash');
  assert.equal(shell.input.command, `touch ${marker}`);
  const answered = server
    .turns()
    .find((turn) => turn.toolResults.some((r) => r.content.includes('SHELL-DENIED-BY-HOOK')));
  assert.ok(answered, 'the model received the feedback as the tool result');
});

test("every built-in tool is in the hook's sight: a before-tool hook with all tools enabled is accepted", async () => {
  const {result} = await run('unguarded', join(project.cwd, 'never'));
  assert.equal(result.ok, true, JSON.stringify(result));
});
