// Hardening, data loss and writes outside the workflow (issue 20, items 2-5), through the real CLI: a result that
// cannot be serialized fails before run.json says succeeded, a symlinked or odd credential file is refused and left
// as it is (unknown fields survive a rewrite), and ignore rules go only into roots Stratos owns.
import assert from 'node:assert/strict';
import {lstat, mkdir, readdir, readFile, readlink, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../helpers/temp-project.ts';

let project: TempProject;

const deepOutputWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({depth: z.number().describe('How deep')}),
  output: z.object({tree: z.unknown().describe('A nested value')}),
  run({depth}) {
    let tree: unknown = 'leaf';
    for (let i = 0; i < depth; i++) tree = {child: tree};
    return {tree};
  },
});
`;

const oauthServer =
  'mcp:\n  servers:\n    stratum:\n      type: http\n      url: http://127.0.0.1:9/mcp\n      auth:\n        type: oauth\n        clientId: client-1\n';

const storedRecord = {
  serverUrl: 'http://127.0.0.1:9/mcp',
  authorizationServer: 'http://127.0.0.1:9',
  clientId: 'client-1',
  accessToken: 'canary-access-token-3f9d1a',
  futureField: {kept: true},
};

before(async () => {
  project = await createTempProject('stratos-hardening-data-');
  await project.writeWorkflow('deep-output', {
    'workflow.yaml': manifest('deep-output'),
    'workflow.ts': deepOutputWorkflow,
  });
  await project.writeWorkflow('uses-oauth', {
    'workflow.yaml': manifest('uses-oauth', oauthServer),
    'workflow.ts': echoWorkflow,
  });
});

after(() => project.remove());

async function onlyRunRecord(): Promise<{status: string; error?: {code: string}}> {
  const runs = join(project.home, 'runs');
  const records = [];
  for (const workspace of await readdir(runs)) {
    for (const run of await readdir(join(runs, workspace))) {
      if (run.endsWith('.json')) continue;
      records.push(JSON.parse(await readFile(join(runs, workspace, run, 'run.json'), 'utf8')));
    }
  }
  return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt)).at(-1);
}

test('an output nested 5,000 levels deep fails validation with a code, and run.json says failed', async () => {
  const result = await project.cli(['run', 'deep-output', '--input', '{"depth":5000}', '--json']);
  assert.equal(result.exitCode, 1, result.stderr);
  assert.equal(result.json.error.code, 'STRATOS_OUTPUT_INVALID', result.stdout);
  assert.match(result.json.error.message, /nested more than 100 levels deep/);
  assert.doesNotMatch(result.stdout + result.stderr, /Maximum call stack|STRATOS_INTERNAL/);
  const record = await onlyRunRecord();
  assert.equal(record.status, 'failed');
  assert.equal(record.error?.code, 'STRATOS_OUTPUT_INVALID');
  const readable = await project.cli(['run', 'deep-output', '--input', '{"depth":5000}']);
  assert.match(readable.stderr, /^error STRATOS_OUTPUT_INVALID/);
});

test('an output within the depth limit still succeeds', async () => {
  const result = await project.cli(['run', 'deep-output', '--input', '{"depth":50}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.equal((await onlyRunRecord()).status, 'succeeded');
});

test('an input nested 5,000 levels deep is an input error, not an internal one', async () => {
  const input = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  const result = await project.cli(['run', 'deep-output', '--input', input, '--json']);
  assert.equal(result.exitCode, 1);
  assert.equal(result.json.error.code, 'STRATOS_INPUT_INVALID', result.stdout);
  assert.match(result.json.error.message, /nested more than 100 levels deep/);
});

test('mcp logout refuses a symlinked credential file and leaves the link and its target unchanged', async () => {
  const target = join(project.cwd, 'elsewhere-credentials.json');
  const text = `${JSON.stringify({version: 1, records: [storedRecord]})}\n`;
  await writeFile(target, text, {mode: 0o600});
  await mkdir(project.home, {recursive: true});
  const file = join(project.home, 'credentials.json');
  await symlink(target, file);
  const result = await project.cli(['mcp', 'logout', '--name', 'stratum', '--json']);
  assert.equal(result.exitCode, 1, result.stdout);
  assert.equal(result.json.error.code, 'STRATOS_CREDENTIALS_NOT_FILE', result.stdout);
  assert.match(result.json.error.message, /is a symbolic link.*left it unchanged/);
  assert.equal(await readlink(file), target, 'the link is still a link');
  assert.equal(await readFile(target, 'utf8'), text, 'the tokens in the target are untouched');
  assert.doesNotMatch(result.stdout, /canary-access-token/);
});

test('a dangling credential link and a folder are refused with the same code, not a permission problem', async () => {
  const file = join(project.home, 'credentials.json');
  await (await import('node:fs/promises')).rm(file, {recursive: true, force: true});
  await symlink(join(project.cwd, 'no-such-file.json'), file);
  const dangling = await project.cli(['mcp', 'logout', '--name', 'stratum', '--json']);
  assert.equal(dangling.json.error.code, 'STRATOS_CREDENTIALS_NOT_FILE', dangling.stdout);
  assert.ok((await lstat(file)).isSymbolicLink(), 'the dangling link is not replaced');
  await (await import('node:fs/promises')).rm(file);
  await mkdir(file);
  const folder = await project.cli(['mcp', 'logout', '--name', 'stratum', '--json']);
  assert.equal(folder.json.error.code, 'STRATOS_CREDENTIALS_NOT_FILE', folder.stdout);
  assert.match(folder.json.error.message, /not a regular file/);
  assert.ok((await lstat(file)).isDirectory());
  await (await import('node:fs/promises')).rm(file, {recursive: true});
});

test('a logout rewrite keeps unknown top-level and record fields', async () => {
  const file = join(project.home, 'credentials.json');
  const other = {...storedRecord, clientId: 'client-2', recordExtra: 7};
  await writeFile(
    file,
    JSON.stringify({version: 1, writtenBy: 'a newer Stratos', records: [storedRecord, other]}),
    {mode: 0o600},
  );
  const result = await project.cli(['mcp', 'logout', '--name', 'stratum', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.equal(result.json.data.removed.length, 1);
  const data = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(data.writtenBy, 'a newer Stratos');
  assert.equal(data.records.length, 1);
  assert.equal(data.records[0].clientId, 'client-2');
  assert.equal(data.records[0].recordExtra, 7);
  assert.deepEqual(data.records[0].futureField, {kept: true});
});

test("running a workflow by path inside a project with its own package.json leaves that project's .gitignore alone", async () => {
  const app = join(project.cwd, 'app');
  await mkdir(join(app, 'my-flow'), {recursive: true});
  const own = '{\n  "name": "my-app",\n  "type": "module"\n}\n';
  await writeFile(join(app, 'package.json'), own);
  await writeFile(join(app, '.gitignore'), 'node_modules\n');
  await writeFile(join(app, 'my-flow', 'workflow.yaml'), manifest('my-flow'));
  await writeFile(join(app, 'my-flow', 'workflow.ts'), echoWorkflow);
  const result = await project.cli(['run', './my-flow', '--input', '{"text":"hi"}', '--json'], {cwd: app});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(await readFile(join(app, '.gitignore'), 'utf8'), 'node_modules\n');
  assert.equal(await readFile(join(app, 'package.json'), 'utf8'), own);
});

test('a path root without a package.json of its own still gets the ignore rules', async () => {
  const folder = join(project.cwd, 'loose');
  await mkdir(join(folder, 'flow'), {recursive: true});
  await writeFile(join(folder, 'flow', 'workflow.yaml'), manifest('flow'));
  await writeFile(join(folder, 'flow', 'workflow.ts'), echoWorkflow);
  const result = await project.cli(['run', './loose/flow', '--input', '{"text":"hi"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.match(await readFile(join(folder, '.gitignore'), 'utf8'), /^\/\*\/dist\/$/m);
});
