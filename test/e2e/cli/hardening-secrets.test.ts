// Hardening, secrets and hostile text on the terminal, through the real CLI: values resolved
// from {env:} and {file:} references never reach the --json envelope, error messages and causes, the echo of
// workflow console output or a stdio server's stderr tail; descriptions with terminal escapes are rejected and
// readable output escapes control characters.
import assert from 'node:assert/strict';
import {chmod} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

const fileSecret = 'canary-file-secret-8d41c0a9e2';
const envSecret = 'canary-env-secret-57b3f1d6c4';
const q = JSON.stringify;

const leakyWorkflow = `import {readFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({fail: z.boolean().describe('Whether to throw')}),
  output: z.object({done: z.boolean().describe('Always true')}),
  run({fail}) {
    const secret = readFileSync(process.env.LEAKY_SECRET_FILE as string, 'utf8').trim();
    console.log('log line with ' + secret);
    console.error('error line with ' + process.env.LEAKY_ENV_SECRET);
    if (fail) {
      throw new Error('failed holding ' + secret, {cause: new Error('cause holding ' + process.env.LEAKY_ENV_SECRET)});
    }
    return {done: true};
  },
});
`;

let project: TempProject;
const env: NodeJS.ProcessEnv = {LEAKY_ENV_SECRET: envSecret};

before(async () => {
  project = await createTempProject('stratos-hardening-secrets-');
  const servers =
    'mcp:\n  servers:\n    tools:\n      type: stdio\n' +
    `      command: ${q(process.execPath)}\n      args: ${q([SERVE_SCRIPT, 'schemas', '--stdio'])}\n` +
    '      env:\n        FROM_FILE: "{file:secret.txt}"\n        FROM_ENV: "{env:LEAKY_ENV_SECRET}"\n';
  const directory = await project.writeWorkflow('leaky', {
    'workflow.yaml': manifest('leaky', servers),
    'workflow.ts': leakyWorkflow,
    'secret.txt': `${fileSecret}\n`,
  });
  await chmod(join(directory, 'secret.txt'), 0o600);
  env.LEAKY_SECRET_FILE = join(directory, 'secret.txt');
  const echoing =
    'mcp:\n  servers:\n    chatty:\n      type: stdio\n' +
    `      command: ${q(process.execPath)}\n` +
    `      args: ["-e", "console.error('my token is ' + process.env.CHATTY_TOKEN); process.exit(3)"]\n` +
    '      env:\n        CHATTY_TOKEN: "{file:secret.txt}"\n';
  const chatty = await project.writeWorkflow('chatty-server', {
    'workflow.yaml': manifest('chatty-server', echoing),
    'secret.txt': `${fileSecret}\n`,
  });
  await chmod(join(chatty, 'secret.txt'), 0o600);
  await project.writeWorkflow('escapes', {
    'workflow.yaml': manifest('escapes').replace(
      'shortDescription: Test workflow escapes.',
      'shortDescription: "Clears \\e[2J the screen"',
    ),
  });
  const built = await project.cli(['build', 'leaky'], {env});
  assert.equal(built.exitCode, 0, built.stderr);
});

after(() => project.remove());

function assertNoSecret(text: string): void {
  assert.ok(!text.includes(fileSecret), `the file secret leaked:\n${text}`);
  assert.ok(!text.includes(envSecret), `the env secret leaked:\n${text}`);
}

test('--json: the envelope (message and causes) and the console echo on stderr are redacted', async () => {
  const result = await project.cli(['run', 'leaky', '--input', '{"fail":true}', '--json'], {env});
  assert.equal(result.exitCode, 1, result.stdout);
  assert.equal(result.json.error.code, 'STRATOS_RUN_FAILED');
  assertNoSecret(result.stdout);
  assertNoSecret(result.stderr);
  assert.match(result.json.error.message, /failed holding \[REDACTED\]/);
  assert.match(JSON.stringify(result.json.error.details.causes), /cause holding \[REDACTED\]/);
  assert.match(result.stderr, /log line with \[REDACTED\]/);
  assert.match(result.stderr, /error line with \[REDACTED\]/);
});

test('readable: the error, its Caused by chain and the console echo are redacted', async () => {
  const failed = await project.cli(['run', 'leaky', '--input', '{"fail":true}'], {env});
  assert.equal(failed.exitCode, 1);
  assertNoSecret(failed.stdout + failed.stderr);
  assert.match(failed.stderr, /Caused by: cause holding \[REDACTED\]/);
  const ok = await project.cli(['run', 'leaky', '--input', '{"fail":false}'], {env});
  assert.equal(ok.exitCode, 0, ok.stderr);
  assertNoSecret(ok.stdout + ok.stderr);
  assert.match(ok.stdout, /log line with \[REDACTED\]/);
});

test("a stdio server's stderr tail in a build error is redacted", async () => {
  const result = await project.cli(['build', 'chatty-server', '--json']);
  assert.equal(result.exitCode, 1, result.stdout);
  assert.match(result.stdout, /my token is \[REDACTED\]/);
  assertNoSecret(result.stdout + result.stderr);
  const readable = await project.cli(['build', 'chatty-server']);
  assert.match(readable.stdout + readable.stderr, /my token is \[REDACTED\]/);
  assertNoSecret(readable.stdout + readable.stderr);
});

test('a description with a terminal escape is rejected, and readable list prints no raw escape', async () => {
  const listed = await project.cli(['list'], {env});
  assert.equal(listed.exitCode, 0, listed.stderr);
  assert.ok(!`${listed.stdout}${listed.stderr}`.includes('\u001b'), 'no raw escape character is printed');
  assert.match(listed.stderr, /STRATOS_MANIFEST_DESCRIPTION_CONTROL_CHARACTER/);
  const json = await project.cli(['list', '--json'], {env});
  const entry = json.json.data.workflows.find((w: {name: string}) => w.name === 'escapes');
  assert.ok(
    entry.diagnostics.some(
      (d: {code: string}) => d.code === 'STRATOS_MANIFEST_DESCRIPTION_CONTROL_CHARACTER',
    ),
  );
});

test('a folder name with control characters is shown escaped', async () => {
  await project.writeWorkflow('bad\u001b[2Jname', {'workflow.yaml': 'name: [\n'});
  const listed = await project.cli(['list'], {env});
  assert.ok(!`${listed.stdout}${listed.stderr}`.includes('\u001b'), listed.stdout + listed.stderr);
  assert.match(listed.stdout + listed.stderr, /bad\\x1b\[2Jname/);
});

test('a description of only zero-width spaces is blank', async () => {
  await project.writeWorkflow('invisible', {
    'workflow.yaml': manifest('invisible').replace(
      'shortDescription: Test workflow invisible.',
      'shortDescription: "\\u200b\\u200b\\u200b"',
    ),
  });
  const json = await project.cli(['list', '--json'], {env});
  const entry = json.json.data.workflows.find((w: {name: string}) => w.name === 'invisible');
  assert.ok(
    entry.diagnostics.some((d: {code: string}) => d.code === 'STRATOS_MANIFEST_DESCRIPTION_BLANK'),
    JSON.stringify(entry),
  );
});
