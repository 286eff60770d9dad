// Hardening, data loss and writes outside the workflow, through the real CLI: a result that
// cannot be serialized fails before run.json says succeeded, a symlinked or odd credential file is refused and left
// as it is (unknown fields survive a rewrite), and ignore rules go only into roots Stratos owns.
import assert from 'node:assert/strict';
import {lstat, mkdir, readdir, readFile, readlink, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

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

const fillDiskWorkflow = `import {closeSync, openSync, writeSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({filler: z.string().describe('A file to grow until the disk is full')}),
  output: z.object({filled: z.boolean().describe('Whether the disk filled up')}),
  run({filler}) {
    const fd = openSync(filler, 'w');
    let filled = false;
    for (let size = 65536; size >= 1; size = Math.floor(size / 2)) {
      const chunk = Buffer.alloc(size, 120);
      try {
        for (;;) writeSync(fd, chunk);
      } catch {
        filled = true;
      }
    }
    closeSync(fd);
    for (let i = 0; i < 5; i++) console.log('x'.repeat(3000) + ' line ' + i);
    return {filled};
  },
});
`;

/** A tmpfs of its own for STRATOS_HOME (needs root and mount; the test is skipped where that is not allowed). */
async function mountSmallDisk(): Promise<string | undefined> {
  const {execFileSync} = await import('node:child_process');
  const folder = join(project.cwd, 'small-disk');
  await mkdir(folder, {recursive: true});
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', folder], {stdio: 'ignore'});
    return folder;
  } catch {
    return undefined;
  }
}

test('a full disk leaves no temporary file, no torn events.jsonl line and a final run.json', async (t) => {
  const disk = await mountSmallDisk();
  if (disk === undefined) {
    t.skip('mounting a tmpfs is not allowed here');
    return;
  }
  const {execFileSync} = await import('node:child_process');
  const {rm} = await import('node:fs/promises');
  try {
    await project.writeWorkflow('fill-disk', {
      'workflow.yaml': manifest('fill-disk'),
      'workflow.ts': fillDiskWorkflow,
    });
    const built = await project.cli(['build', 'fill-disk']);
    assert.equal(built.exitCode, 0, built.stderr);
    const home = join(disk, 'home');
    const filler = join(disk, 'filler');
    const result = await project.cli(['run', 'fill-disk', '--input', JSON.stringify({filler}), '--json'], {
      env: {STRATOS_HOME: home},
    });
    await rm(filler, {force: true});
    assert.equal(result.exitCode, 0, result.stdout + result.stderr);
    assert.equal(result.json.data.output.filled, true, 'the disk did fill up');
    const runs = join(home, 'runs');
    const [workspace] = (await readdir(runs, {withFileTypes: true})).filter((e) => e.isDirectory());
    const folder = join(runs, workspace!.name);
    const [run] = await readdir(folder, {withFileTypes: true}).then((e) => e.filter((d) => d.isDirectory()));
    const files = await readdir(join(folder, run!.name));
    assert.deepEqual(
      files.filter((name) => name.endsWith('.tmp')),
      [],
      `no temporary file is left: ${files.join(', ')}`,
    );
    const record = JSON.parse(await readFile(join(folder, run!.name, 'run.json'), 'utf8'));
    assert.equal(record.status, 'succeeded');
    assert.ok(record.endedAt !== undefined);
    const events = await readFile(join(folder, run!.name, 'events.jsonl'), 'utf8');
    assert.ok(events === '' || events.endsWith('\n'), 'the last line is whole');
    for (const line of events.split('\n').filter((l) => l !== '')) JSON.parse(line);
    assert.ok(
      result.json.warnings.some((w: {code: string}) => w.code === 'STRATOS_TELEMETRY_ARTIFACT_FAILED'),
      'the write failures are reported as warnings',
    );
  } finally {
    execFileSync('umount', [disk], {stdio: 'ignore'});
  }
});
