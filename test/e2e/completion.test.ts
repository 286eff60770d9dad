// Shell completion through real bash: the script `stratos completion bash` prints is loaded, `complete -p` shows
// it registered for stratos and st, and the completion function, driven by COMP_WORDS/COMP_CWORD as bash does,
// offers commands, group actions, options, option choices, workflow names and run ids from a temp project.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {chmod, mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../helpers/temp-project.ts';

let project: TempProject;
let bin: string;
let runId: string;

before(async () => {
  project = await createTempProject('stratos-completion-');
  for (const name of ['greet', 'grow', 'other'])
    await project.writeWorkflow(name, {'workflow.yaml': manifest(name), 'workflow.ts': echoWorkflow});
  const run = await project.cli(['run', 'greet', '--input', '{"text":"hi"}', '--json']);
  assert.equal(run.exitCode, 0, run.stderr);
  const runs = await project.cli(['runs', 'list', '--json']);
  runId = runs.json.data.runs[0].runId;
  // `stratos` on PATH, as an installed package puts it there: this Node running this repository's CLI.
  bin = join(project.cwd, '..', 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'stratos'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
  await chmod(join(bin, 'stratos'), 0o755);
});

after(() => project.remove());

/** Runs `script` in a non-interactive bash with the completion loaded; returns its stdout. */
function bash(script: string): string {
  const result = spawnSync(
    'bash',
    ['--norc', '--noprofile', '-c', `source <(stratos completion bash)\n${script}`],
    {
      cwd: project.cwd,
      env: {...cleanEnv(), ...project.env, PATH: `${bin}:${process.env.PATH}`},
      encoding: 'utf8',
    },
  );
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** The candidates bash gets for the command line `words` (the last word is the one being completed). */
function complete(...words: string[]): string[] {
  const quoted = words.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const out = bash(
    `COMP_WORDS=(stratos ${quoted}); COMP_CWORD=${words.length}; _stratos_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  return out.split('\n').filter((line) => line !== '');
}

test('the bash script registers a completion function for stratos and st', () => {
  const registered = bash('complete -p stratos; complete -p st');
  assert.match(registered, /^complete -o default -F _stratos_completion stratos$/m);
  assert.match(registered, /^complete -o default -F _stratos_completion st$/m);
});

test('commands, group actions and options come from the command table', () => {
  assert.deepEqual(complete('ru'), ['run', 'runs']);
  assert.deepEqual(complete('mcp', 'lo'), ['login', 'logout']);
  assert.deepEqual(complete('run', 'greet', '--in'), ['--input', '--input-file']);
  assert.deepEqual(complete('new', 'x', '--template', ''), ['basic', 'mcp', 'agent', 'decision']);
  assert.deepEqual(complete('completion', ''), ['bash', 'zsh', 'fish']);
  assert.deepEqual(
    complete('list', '--js'),
    ['--json'],
    'a --json being typed does not turn the answer into an envelope',
  );
  assert.ok(!complete('').includes('__complete'), 'the callback itself is not offered');
});

test('workflow names and run ids come from the project', () => {
  assert.deepEqual(complete('run', 'gr'), ['greet', 'grow']);
  assert.deepEqual(complete('describe', '--name', 'o'), ['other']);
  assert.deepEqual(complete('build', '--force', ''), ['greet', 'grow', 'other']);
  assert.deepEqual(complete('runs', 'show', runId.slice(0, 6)), [runId]);
  // After the workflow, a value that takes a path is left to bash's own file completion (-o default).
  assert.deepEqual(complete('run', 'greet', '--input-file', ''), []);
});

test('zsh and fish scripts call back the same way; an unknown shell is a usage error', async () => {
  for (const shell of ['zsh', 'fish']) {
    const result = await project.cli(['completion', shell]);
    assert.equal(result.exitCode, 0);
    assert.match(result.stdout, /__complete -- /);
    assert.match(result.stdout, /\bst\b/);
  }
  const json = await project.cli(['completion', 'bash', '--json']);
  assert.equal(json.json.data.shell, 'bash');
  assert.match(json.json.data.script, /_stratos_completion/);
  const unknown = await project.cli(['completion', 'powershell', '--json']);
  assert.equal(unknown.exitCode, 1);
  assert.equal(unknown.json.error.code, 'STRATOS_CLI_USAGE');
});
