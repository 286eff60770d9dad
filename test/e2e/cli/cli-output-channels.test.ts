// How the CLI writes stdout and stderr (src/cli/output/process-output.ts): its own text straight to the descriptor,
// workflow writes through the stream Node creates on first use, in the order they were made. Through the real
// binary, with real pipes: a reader that is gone, a pipe opened non-blocking and a redirect into a file.
import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const mixedWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({size: z.number().int().describe('Characters in the output')}),
  output: z.object({text: z.string().describe('A long text')}),
  run({size}) {
    if (size === 0) {
      process.stdout.write('raw one\\n');
      console.log('console two');
      process.stdout.write('raw three\\n');
    }
    if (size > 0) console.error('returning the output');
    return {text: 'x'.repeat(size) + 'END'};
  },
});
`;

let project: TempProject;

before(async () => {
  project = await createTempProject('stratos-output-channels-');
  await project.writeWorkflow('mixed', {'workflow.yaml': manifest('mixed'), 'workflow.ts': mixedWorkflow});
  const built = await project.cli(['build', 'mixed']);
  assert.equal(built.exitCode, 0, built.stdout + built.stderr);
});

after(() => project.remove());

const env = () => ({...cleanEnv(), ...project.env});

test("the workflow's writes come first and in order, then the CLI's output on the same stdout", async () => {
  const result = await project.cli(['run', 'mixed', '--input', '{"size":0}']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, 'raw one\nconsole two\nraw three\n{\n  "text": "END"\n}\n');
});

test('in --json mode the workflow writes go to stderr and stdout holds the envelope alone', async () => {
  const result = await project.cli(['run', 'mixed', '--input', '{"size":0}', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(result.json.data.output, {text: 'END'});
  assert.match(result.stderr, /raw one\nconsole two\nraw three\n/);
});

test('a reader that closes the pipe early ends the output quietly, with the exit code of the command', () => {
  const result = spawnSync(
    'bash',
    [
      '-c',
      `"${process.execPath}" "${cliPath}" run mixed --input '{"size":400000}' | head -c 10; exit \${PIPESTATUS[0]}`,
    ],
    {cwd: project.cwd, env: env(), encoding: 'utf8'},
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, '{\n  "text"');
  assert.equal(result.stderr, 'returning the output\n', 'the workflow line alone: no error');
});

test('a pipe opened non-blocking is written through the stream once it is full, and nothing is lost', async () => {
  // Python opens the pipe non-blocking before the CLI starts; the reader waits until the pipe has filled up.
  const child = spawn(
    'python3',
    [
      '-c',
      'import os, sys; os.set_blocking(1, False); os.execv(sys.argv[1], sys.argv[1:])',
      process.execPath,
      cliPath,
      'run',
      'mixed',
      '--input',
      '{"size":400000}',
    ],
    {cwd: project.cwd, env: env(), stdio: ['ignore', 'pipe', 'pipe']},
  );
  child.stdout.pause();
  let stdout = '';
  let stderr = '';
  // Reading starts only once the workflow has returned and a moment has passed: the CLI is then writing into a
  // full pipe (64 KiB of a 400 KB output) that nobody reads.
  const closed = new Promise((resolve) => child.on('close', resolve));
  await Promise.race([
    closed,
    new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('returning the output')) resolve();
      }),
    ),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stdout.resume();
  assert.equal(await closed, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), {text: `${'x'.repeat(400_000)}END`});
});

test('stdout redirected into a file gets the whole output', async () => {
  const file = join(project.cwd, '..', 'out.txt');
  const result = spawnSync(
    'bash',
    ['-c', `"${process.execPath}" "${cliPath}" run mixed --input '{"size":0}' > "${file}"`],
    {cwd: project.cwd, env: env(), encoding: 'utf8'},
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(await readFile(file, 'utf8'), 'raw one\nconsole two\nraw three\n{\n  "text": "END"\n}\n');
});
