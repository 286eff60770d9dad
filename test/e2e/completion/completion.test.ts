// Shell completion through the real shells. bash: the script `stratos completion bash` prints is loaded, `complete -p`
// shows it registered for stratos and st, and the completion function, driven by COMP_WORDS/COMP_CWORD as bash does,
// offers commands, group actions, options, option choices, workflow names and run ids from a temp project. zsh: the
// script is loaded after compinit (sourced, and autoloaded from $fpath), `_stratos` runs with words/CURRENT set as
// the completion system sets them, and what it hands to compadd is captured. fish: with the script sourced, or saved
// where fish looks for completions, `complete -C` prints what fish would offer for a command line. zsh and fish
// skip only where they are missing and cannot be installed (scripts/ensure-test-packages.ts, which `npm test` runs
// first, installs them as root on Debian).
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {chmod, mkdir, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {describeUninstallable} from '../../../scripts/ensure-test-packages.ts';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

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
  await symlink('stratos', join(bin, 'st'));
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

/** Runs `args` of `shell` in the project with `stratos` and `st` on PATH; returns its stdout. */
function runShell(shell: string, args: string[]): string {
  const result = spawnSync(shell, args, {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env, PATH: `${bin}:${process.env.PATH}`},
    encoding: 'utf8',
  });
  if (result.error !== undefined)
    assert.fail(
      `${shell} did not start (${result.error.message}): install it with 'node scripts/ensure-test-packages.ts'.`,
    );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '', 'loading and running the completion prints no error');
  return result.stdout;
}

/** Single-quotes `word` for zsh and fish alike. */
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

// In a completion widget, compadd receives the matches; outside one it cannot run, so the test shell replaces it
// (and _files, the fallback) with functions that print what they were given.
const zshCapture = `compadd() { while (( $# )) && [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@"; }
_files() { print -r -- '<files>'; }
`;

/** The candidates zsh's `_stratos` offers for `words` (the last one being completed), after `load` set it up. */
function completeZsh(load: string, ...words: string[]): string[] {
  const out = runShell('zsh', [
    '-f',
    '-c',
    `${load}\n${zshCapture}words=(stratos ${words.map(quote).join(' ')}); CURRENT=${words.length + 1}; _stratos`,
  ]);
  return out.split('\n').filter((line) => line !== '');
}

const zshSourced = 'autoload -U compinit; compinit -u -D; source <(stratos completion zsh)';
const zshSkip = describeUninstallable('zsh') ?? false;

test('the zsh script registers _stratos for stratos and st after compinit', {skip: zshSkip}, () => {
  const registered = runShell('zsh', [
    '-f',
    '-c',
    `${zshSourced}\nprint -r -- "$_comps[stratos] $_comps[st]"`,
  ]);
  assert.equal(registered, '_stratos _stratos\n');
});

test('zsh: commands, group actions, options and choices come from the command table', {skip: zshSkip}, () => {
  assert.deepEqual(completeZsh(zshSourced, 'ru'), ['run', 'runs']);
  assert.deepEqual(completeZsh(zshSourced, 'mcp', 'lo'), ['login', 'logout']);
  assert.deepEqual(completeZsh(zshSourced, 'run', 'greet', '--in'), ['--input', '--input-file']);
  assert.deepEqual(completeZsh(zshSourced, 'new', 'x', '--template', ''), [
    'basic',
    'mcp',
    'agent',
    'decision',
  ]);
  assert.deepEqual(completeZsh(zshSourced, 'completion', ''), ['bash', 'zsh', 'fish']);
});

test('zsh: workflow names and run ids come from the project; a path falls back to files', {
  skip: zshSkip,
}, () => {
  assert.deepEqual(completeZsh(zshSourced, 'run', 'gr'), ['greet', 'grow']);
  assert.deepEqual(completeZsh(zshSourced, 'describe', '--name', 'o'), ['other']);
  assert.deepEqual(completeZsh(zshSourced, 'runs', 'show', runId.slice(0, 6)), [runId]);
  assert.deepEqual(completeZsh(zshSourced, 'run', 'greet', '--input-file', ''), ['<files>']);
});

test('zsh: saved as _stratos in a folder of $fpath, the script completes on its first call', {
  skip: zshSkip,
}, async () => {
  const functions = join(project.cwd, '..', 'zsh-functions');
  await mkdir(functions, {recursive: true});
  const script = await project.cli(['completion', 'zsh']);
  await writeFile(join(functions, '_stratos'), script.stdout);
  const load = `fpath=(${quote(functions)} $fpath); autoload -U compinit; compinit -u -D`;
  assert.equal(
    runShell('zsh', ['-f', '-c', `${load}\nprint -r -- "$_comps[stratos] $_comps[st]"`]),
    '_stratos _stratos\n',
  );
  assert.deepEqual(completeZsh(load, 'run', 'gr'), ['greet', 'grow']);
});

const fishSkip = describeUninstallable('fish') ?? false;

/** What fish offers for the command line `line` (candidates without descriptions, sorted by fish) after `load`. */
function completeFish(line: string, load = 'stratos completion fish | source'): string[] {
  const out = runShell('fish', ['--no-config', '-c', `${load}\ncomplete -C ${quote(line)}`]);
  return out
    .split('\n')
    .filter((entry) => entry !== '')
    .map((entry) => entry.split('\t')[0]!);
}

test('fish: commands, group actions, options and choices come from the command table', {
  skip: fishSkip,
}, () => {
  assert.deepEqual(completeFish('stratos ru'), ['run', 'runs']);
  assert.deepEqual(completeFish('st ru'), ['run', 'runs'], 'st completes like stratos');
  assert.deepEqual(completeFish('stratos mcp lo'), ['login', 'logout']);
  assert.deepEqual(completeFish('stratos run greet --in'), ['--input', '--input-file']);
  assert.deepEqual(completeFish('stratos new x --template '), ['agent', 'basic', 'decision', 'mcp']);
  assert.deepEqual(completeFish('stratos completion '), ['bash', 'fish', 'zsh']);
});

test('fish: workflow names and run ids come from the project; a path falls back to files', {
  skip: fishSkip,
}, async () => {
  assert.deepEqual(completeFish('stratos run gr'), ['greet', 'grow']);
  assert.deepEqual(completeFish('stratos describe --name o'), ['other']);
  assert.deepEqual(completeFish(`stratos runs show ${runId.slice(0, 6)}`), [runId]);
  await project.write('input-one.json', '{"text":"hi"}');
  assert.deepEqual(completeFish('stratos run greet --input-file input-o'), ['input-one.json']);
});

test('fish: saved as stratos.fish and st.fish where fish looks for completions, the script loads', {
  skip: fishSkip,
}, async () => {
  const completions = join(project.cwd, '..', 'fish-completions');
  await mkdir(completions, {recursive: true});
  const script = await project.cli(['completion', 'fish']);
  for (const name of ['stratos', 'st']) await writeFile(join(completions, `${name}.fish`), script.stdout);
  const load = `set -p fish_complete_path ${quote(completions)}`;
  assert.deepEqual(completeFish('stratos ru', load), ['run', 'runs']);
  assert.deepEqual(completeFish('st run gr', load), ['greet', 'grow']);
});

test('the --json form carries the script; an unknown shell is a usage error', async () => {
  const json = await project.cli(['completion', 'bash', '--json']);
  assert.equal(json.json.data.shell, 'bash');
  assert.match(json.json.data.script, /_stratos_completion/);
  const unknown = await project.cli(['completion', 'powershell', '--json']);
  assert.equal(unknown.exitCode, 1);
  assert.equal(unknown.json.error.code, 'STRATOS_CLI_USAGE');
});
