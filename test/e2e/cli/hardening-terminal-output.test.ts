// Hardening, no secret and no untrusted escape on the terminal, through the real CLI: a secret written in pieces,
// a multi-line key printed line by line, credential environment variables (by name and inside URL values), and
// control characters of untrusted text (workflow output and errors, workflow descriptions, a model name, an MCP
// server's stderr) shown escaped, while Stratos's own colors still reach a terminal.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {chmod} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';
import {type OllamaServer, startOllamaServer} from '../../servers/ollama/index.ts';

const ESC = '\u001b';
const splitSecret = 'split-secret-4b7e19c0a2d6';
const keyLines = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7e2eKeyLine1a',
  'W1y3lqfJdZ8Vr0q7hK2bq9Jm5TnE0xYcN4pLs8uRt6aGzXvB2oIiD3eFkMwQh9lb',
];
const pem = `-----BEGIN PRIVATE KEY-----\n${keyLines.join('\n')}\n-----END PRIVATE KEY-----\n`;
const q = JSON.stringify;

/** Credential environment variables and what must never be shown of them. */
const credentialEnv: Record<string, string> = {
  DB_PASS: 'db-pass-77e1c9a3',
  GH_PAT: 'github_pat_11AAAAAAA0e2e',
  X_ACCESS_KEY_ID: 'AKIAE2EEXAMPLE123456',
  DATABASE_URL: 'postgres://app:url-pass-5d9c2b@db.internal:5432/app',
  SENTRY_DSN: 'https://0f1e2d3c4b5a69788796a5b4c3d2e1f0@o1.ingest.sentry.io/42',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T00000000/B00000000/e2eWebhookSecret0123456',
};
const hidden = [
  'db-pass-77e1c9a3',
  'github_pat_11AAAAAAA0e2e',
  'AKIAE2EEXAMPLE123456',
  'url-pass-5d9c2b',
  '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  'e2eWebhookSecret0123456',
];
/** Ordinary variables printed beside them, which must stay readable. */
const ordinaryEnv: Record<string, string> = {
  PLAIN_SETTING: 'ordinary-value-123',
  DATABASE_HOST: 'db.internal',
};

const printingWorkflow = `import {readFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({what: z.enum(['split', 'key', 'env', 'escape']).describe('What to print')}),
  output: z.object({value: z.string().describe('A value')}),
  run({what}) {
    if (what === 'split') {
      const s = process.env.SPLIT_API_TOKEN as string;
      process.stdout.write('out: ' + s.slice(0, 8));
      process.stdout.write(s.slice(8) + ' done\\n');
      process.stderr.write('err: ' + s.slice(0, 13));
      process.stderr.write(s.slice(13) + ' done\\n');
      process.stdout.write('tail ' + s.slice(0, 5));
      process.stdout.write(Buffer.from(s.slice(5)));
      return {value: 'ok'};
    }
    if (what === 'key') {
      const lines = readFileSync(process.env.KEY_FILE as string, 'utf8').trimEnd().split('\\n');
      lines.forEach((line, index) => console.log(index + ' ' + line));
      console.log('service ' + ['literal', 'service', 'key', '8e1f'].join('-'));
      return {value: 'ok'};
    }
    if (what === 'env') {
      for (const name of ${q([...Object.keys(credentialEnv), ...Object.keys(ordinaryEnv)])})
        console.log(name + '=' + process.env[name]);
      return {value: 'ok'};
    }
    process.stdout.write('plain \\u001b[31mred\\u001b[39m \\u001b]0;title\\u0007 \\u001b[2J\\n');
    console.error('err \\u001b[1mbold');
    throw new Error('\\u001b[31mevil\\u001b[39m failure');
  },
});
`;

let project: TempProject;
let ollama: OllamaServer;
const env: NodeJS.ProcessEnv = {SPLIT_API_TOKEN: splitSecret, ...credentialEnv, ...ordinaryEnv};

before(async () => {
  project = await createTempProject('stratos-hardening-terminal-');
  const servers =
    'mcp:\n  servers:\n    tools:\n      type: stdio\n' +
    `      command: ${q(process.execPath)}\n      args: ${q([SERVE_SCRIPT, 'schemas', '--stdio'])}\n` +
    '      env:\n        PRIVATE_KEY: "{file:key.pem}"\n        SERVICE_KEY: literal-service-key-8e1f\n';
  const directory = await project.writeWorkflow('printing', {
    'workflow.yaml': manifest('printing', servers),
    'workflow.ts': printingWorkflow,
    'key.pem': pem,
  });
  await chmod(join(directory, 'key.pem'), 0o600);
  env.KEY_FILE = join(directory, 'key.pem');
  await project.writeWorkflow('colored', {
    'workflow.yaml': manifest('colored').replace(
      'shortDescription: Test workflow colored.',
      'shortDescription: "Looks \\e[31mred\\e[39m"',
    ),
  });
  await project.writeWorkflow('noisy-server', {
    'workflow.yaml': manifest(
      'noisy-server',
      'mcp:\n  servers:\n    noisy:\n      type: stdio\n' +
        `      command: ${q(process.execPath)}\n` +
        `      args: ["-e", "console.error('\\\\u001b[31mserver says hi\\\\u001b[39m'); process.exit(3)"]\n`,
    ),
  });
  ollama = await startOllamaServer({
    version: '0.14.2',
    models: [{name: `${ESC}[31mevil:latest`, capabilities: ['completion', 'tools'], contextLength: 4096}],
  });
  const built = await project.cli(['build', 'printing'], {env});
  assert.equal(built.exitCode, 0, built.stderr);
});

after(async () => {
  await ollama?.close();
  await project?.remove();
});

function assertNoRawEscape(text: string, what: string): void {
  assert.ok(!text.includes(ESC), `${what}: a raw escape reached the output:\n${q(text)}`);
}

test('a secret written in pieces is redacted in readable and --json mode; the text around it survives', async () => {
  const readable = await project.cli(['run', 'printing', '--input', '{"what":"split"}'], {env});
  assert.equal(readable.exitCode, 0, readable.stderr);
  for (const output of [readable.stdout, readable.stderr]) assert.ok(!output.includes(splitSecret), output);
  assert.match(readable.stdout, /^out: \[REDACTED\] done\ntail \[REDACTED\]/);
  assert.match(readable.stderr, /err: \[REDACTED\] done\n/);
  const json = await project.cli(['run', 'printing', '--input', '{"what":"split"}', '--json'], {env});
  assert.equal(json.exitCode, 0, json.stderr);
  assert.equal(json.json.data.output.value, 'ok', 'stdout is the envelope alone');
  assert.ok(!`${json.stdout}${json.stderr}`.includes(splitSecret), json.stderr);
  assert.match(json.stderr, /out: \[REDACTED\] done\n/);
  assert.match(json.stderr, /err: \[REDACTED\] done\n/);
  assert.match(json.stderr, /tail \[REDACTED\]/, 'the held tail is written before the process ends');
});

test('a multi-line {file:} key printed line by line shows no key line; its armour stays; a literal *_KEY entry is a secret', async () => {
  const result = await project.cli(['run', 'printing', '--input', '{"what":"key"}'], {env});
  assert.equal(result.exitCode, 0, result.stderr);
  for (const line of keyLines) assert.ok(!result.stdout.includes(line), result.stdout);
  assert.match(
    result.stdout,
    /^0 -----BEGIN PRIVATE KEY-----\n1 \[REDACTED\]\n2 \[REDACTED\]\n3 -----END PRIVATE KEY-----\n/,
  );
  assert.match(
    result.stdout,
    /service \[REDACTED\]\n/,
    'a literal *_KEY entry of a stdio server is a secret too',
  );
});

test('credential environment variables are redacted by name and inside URLs; ordinary ones stay', async () => {
  for (const mode of [[], ['--json']]) {
    const result = await project.cli(['run', 'printing', '--input', '{"what":"env"}', ...mode], {env});
    assert.equal(result.exitCode, 0, result.stderr);
    const shown = result.stdout + result.stderr;
    for (const secret of hidden) assert.ok(!shown.includes(secret), `${secret} leaked:\n${shown}`);
    assert.match(shown, /DB_PASS=\[REDACTED\]/);
    assert.match(shown, /DATABASE_URL=postgres:\/\/app:\[REDACTED\]@db\.internal:5432\/app/);
    assert.match(shown, /PLAIN_SETTING=ordinary-value-123/);
    assert.match(shown, /DATABASE_HOST=db\.internal/);
  }
});

test("a workflow's escapes and its error's are shown escaped, in readable and --json mode", async () => {
  const readable = await project.cli(['run', 'printing', '--input', '{"what":"escape"}'], {env});
  assert.equal(readable.exitCode, 1);
  assertNoRawEscape(readable.stdout + readable.stderr, 'run');
  assert.match(readable.stdout, /plain \\x1b\[31mred\\x1b\[39m \\x1b\]0;title\\x07 \\x1b\[2J\n/);
  assert.match(readable.stderr, /err \\x1b\[1mbold/);
  assert.match(readable.stderr, /\\x1b\[31mevil\\x1b\[39m failure/);
  const json = await project.cli(['run', 'printing', '--input', '{"what":"escape"}', '--json'], {env});
  assert.equal(json.exitCode, 1);
  assertNoRawEscape(json.stderr, 'run --json stderr');
  assert.ok(json.json.error.message.includes(`${ESC}[31mevil`), 'the envelope keeps the text, JSON-escaped');
});

test('a folder name, a description, a model name and an MCP server message with color codes are shown escaped', async () => {
  await project.writeWorkflow(`red${ESC}[31mfolder`, {'workflow.yaml': 'name: [\n'});
  const listed = await project.cli(['list'], {env});
  assertNoRawEscape(listed.stdout + listed.stderr, 'list');
  assert.match(listed.stdout + listed.stderr, /red\\x1b\[31mfolder/);
  assert.match(listed.stdout + listed.stderr, /colored .*\[invalid\]/, 'the colored description is refused');
  const status = await project.cli(['provider', 'status'], {env: {OLLAMA_HOST: ollama.url}});
  assert.equal(status.exitCode, 0, status.stderr);
  assertNoRawEscape(status.stdout + status.stderr, 'provider status');
  assert.match(status.stdout, /\\x1b\[31mevil:latest: completion, tools/);
  const build = await project.cli(['build', 'noisy-server']);
  assert.equal(build.exitCode, 1);
  assertNoRawEscape(build.stdout + build.stderr, 'build');
  assert.match(build.stdout + build.stderr, /\\x1b\[31mserver says hi/);
});

test("on a terminal, an untrusted model name stays escaped while Stratos's own colors remain", async () => {
  const command = [process.execPath, cliPath, 'provider', 'status'].map((word) => `'${word}'`).join(' ');
  const screen = await new Promise<string>((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: project.cwd,
      env: {...cleanEnv(), ...project.env, CI: undefined, TERM: 'xterm-256color', OLLAMA_HOST: ollama.url},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    child.on('close', () => resolve(text));
  });
  assert.ok(screen.includes(`${ESC}[32mrunning${ESC}[39m`), `own colors are kept:\n${q(screen)}`);
  assert.ok(screen.includes('\\x1b[31mevil:latest'), q(screen));
  assert.ok(!screen.includes(`${ESC}[31mevil`), 'the model name colors nothing');
});
