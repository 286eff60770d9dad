// Terminal behaviour through the real binary under a real pseudo-terminal (util-linux `script`): progress and color
// on a terminal only, never in --json mode or CI; NO_COLOR honoured; piped or redirected output has no escape codes.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const escapeCode = '\u001b[';
const progressLine = /echo: compiling TypeScript…/;

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-terminal-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  await project.writeWorkflow('broken', {
    'workflow.yaml': manifest('broken'),
    'workflow.ts': echoWorkflow.replace('text.toUpperCase()', 'text.toUpperCase(1)'),
  });
});

after(() => project.remove());

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs the CLI with stdin, stdout and stderr on a pseudo-terminal and returns what the terminal showed.
 * `redirectStdout` sends stdout to that file instead, so only stderr is a terminal.
 */
function runInTerminal(
  args: string[],
  options: {env?: NodeJS.ProcessEnv; redirectStdout?: string} = {},
): Promise<{exitCode: number | null; screen: string}> {
  const env: NodeJS.ProcessEnv = {...cleanEnv(), ...project.env, TERM: 'xterm-256color', ...options.env};
  if (options.env?.CI === undefined) delete env.CI;
  const command = [process.execPath, cliPath, ...args].map(quote).join(' ');
  const line =
    options.redirectStdout === undefined ? command : `${command} > ${quote(options.redirectStdout)}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', line, '/dev/null'], {
      cwd: project.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (screen += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (screen += chunk));
    child.on('close', (exitCode) => resolve({exitCode, screen: screen.replaceAll('\r\n', '\n')}));
  });
}

test('on a terminal, a build shows its progress on stderr and colors its marks', async () => {
  const result = await runInTerminal(['build', 'echo', '--force']);
  assert.equal(result.exitCode, 0, result.screen);
  assert.match(result.screen, progressLine);
  assert.ok(
    result.screen.includes(`${escapeCode}32m✓ built`),
    `green mark: ${JSON.stringify(result.screen)}`,
  );
});

test('NO_COLOR on a terminal: progress stays, no escapeCode codes anywhere', async () => {
  const built = await runInTerminal(['build', 'echo', '--force'], {env: {NO_COLOR: '1'}});
  assert.equal(built.exitCode, 0, built.screen);
  assert.match(built.screen, progressLine);
  assert.ok(!built.screen.includes(escapeCode), JSON.stringify(built.screen));
  const failed = await runInTerminal(['run', 'broken', '--input', '{"text":"a"}'], {env: {NO_COLOR: '1'}});
  assert.equal(failed.exitCode, 1);
  assert.match(failed.screen, /error STRATOS_BUILD_TYPE_ERROR/);
  assert.ok(!failed.screen.includes(escapeCode), JSON.stringify(failed.screen));
});

test('in CI on a terminal: no progress', async () => {
  const result = await runInTerminal(['build', 'echo', '--force'], {env: {CI: '1', NO_COLOR: '1'}});
  assert.equal(result.exitCode, 0, result.screen);
  assert.doesNotMatch(result.screen, progressLine);
});

test('--json on a terminal: no progress, no color, only the envelope', async () => {
  const result = await runInTerminal(['build', 'echo', '--force', '--json']);
  assert.equal(result.exitCode, 0, result.screen);
  assert.ok(!result.screen.includes(escapeCode), JSON.stringify(result.screen));
  assert.equal(JSON.parse(result.screen).data.workflows[0].status, 'built');
});

test('stderr on a terminal but stdout redirected: the redirected file has no escapeCode codes', async () => {
  const file = join(project.cwd, 'list.txt');
  const result = await runInTerminal(['list'], {redirectStdout: file});
  assert.equal(result.exitCode, 0, result.screen);
  const written = await readFile(file, 'utf8');
  assert.match(written, /^broken +Test workflow broken\. +\[absent\]$/m);
  assert.ok(!written.includes(escapeCode), JSON.stringify(written));
});

test('piped output (no terminal) has no escapeCode codes and no progress', async () => {
  for (const args of [['build', 'echo', '--force'], ['list'], ['run', 'broken', '--input', '{"text":"a"}']]) {
    const result = await project.cli(args, {env: {CI: ''}});
    const all = result.stdout + result.stderr;
    assert.ok(!all.includes(escapeCode), `${args.join(' ')}: ${JSON.stringify(all)}`);
    assert.doesNotMatch(all, progressLine);
  }
});
