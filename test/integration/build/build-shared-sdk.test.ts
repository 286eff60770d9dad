// The one shared SDK per discovery root: workflow code imports '@stratoscli/stratos' through the root's link to the
// running CLI, so it sees the runtime's own AsyncLocalStorage. With a second SDK instance currentExecution() would
// throw STRATOS_RUNTIME_NO_CONTEXT; here it returns the execution id and the directory the CLI was started in.
import assert from 'node:assert/strict';
import {cp, lstat, mkdir, readFile, readlink, realpath, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {runCli} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const packageDirectory = fileURLToPath(new URL('../../../', import.meta.url));
/** The package's authoring entry as its `exports` name it (the package resolving itself by name). */
const sdkEntry = fileURLToPath(import.meta.resolve('@stratoscli/stratos'));

const whereWorkflow = `import {currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({
    executionId: z.string().describe('Execution id seen by the workflow'),
    invocationDirectory: z.string().describe('Invocation directory seen by the workflow'),
    workflowDirectory: z.string().describe('Folder of the workflow'),
    processDirectory: z.string().describe('process.cwd() inside run'),
    sdkUrl: z.string().describe('Where the SDK import resolved'),
    zodUrl: z.string().describe('Where the zod import resolved'),
  }),
  async run() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const execution = currentExecution();
    return {
      executionId: execution.executionId,
      invocationDirectory: execution.invocationDirectory,
      workflowDirectory: execution.workflowDirectory,
      processDirectory: process.cwd(),
      sdkUrl: import.meta.resolve('@stratoscli/stratos'),
      zodUrl: import.meta.resolve('zod'),
    };
  },
});
`;

let project: TempProject;
let directory: string;

before(async () => {
  project = await createTempProject('stratos-shared-sdk-');
  directory = await project.writeWorkflow('where', {
    'workflow.yaml': manifest('where'),
    'workflow.ts': whereWorkflow,
  });
});

after(() => project.remove());

test('currentExecution() inside run works: the workflow and the runtime share one SDK instance', async () => {
  const result = await project.cli(['run', 'where', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const {output, executionId} = result.json.data;
  assert.equal(output.executionId, executionId, 'the id the runtime reports is the id the workflow saw');
  assert.match(output.executionId, /^[0-9a-f]{16}$/);
  assert.equal(output.invocationDirectory, project.cwd, 'the cwd the CLI was started in');
  assert.notEqual(output.invocationDirectory, directory, 'not the workflow folder');
  assert.equal(output.processDirectory, project.cwd, 'the workflow runs where it was invoked');
  assert.equal(output.workflowDirectory, directory);
});

test('the SDK and zod imports resolve through the root link to the CLI package itself', async () => {
  const result = await project.cli(['run', 'where', '--json']);
  const {sdkUrl, zodUrl} = result.json.data.output;
  assert.equal(await realpath(fileURLToPath(sdkUrl)), await realpath(sdkEntry));
  assert.ok(sdkEntry.startsWith(packageDirectory), sdkEntry);
  const cliZod = import.meta.resolve('zod');
  assert.equal(await realpath(fileURLToPath(zodUrl)), await realpath(fileURLToPath(cliZod)));
  const link = join(project.projectRoot, 'node_modules', '@stratoscli', 'stratos');
  assert.ok((await lstat(link)).isSymbolicLink());
  assert.equal(await realpath(await readlink(link)), await realpath(packageDirectory));
  const rootPackage = JSON.parse(await readFile(join(project.projectRoot, 'package.json'), 'utf8'));
  const cliVersion = JSON.parse(await readFile(join(packageDirectory, 'package.json'), 'utf8')).version;
  assert.equal(rootPackage.type, 'module');
  assert.equal(rootPackage.stratos.sdkVersion, cliVersion, 'exactly the CLI version');
});

test('each run is a new execution with its own id', async () => {
  const [first, second] = await Promise.all([
    project.cli(['run', 'where', '--json']),
    project.cli(['run', 'where', '--json']),
  ]);
  assert.notEqual(first.json.data.output.executionId, second.json.data.output.executionId);
});

test('invoked from another directory by folder path, the invocation directory is that directory', async () => {
  const elsewhere = join(project.cwd, '..', 'elsewhere');
  await mkdir(elsewhere, {recursive: true});
  const result = await project.cli(['run', directory, '--json'], {cwd: elsewhere});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.equal(result.json.data.output.invocationDirectory, await realpath(elsewhere));
  assert.equal(result.json.data.output.processDirectory, await realpath(elsewhere));
});

test('currentExecution() outside a running workflow throws STRATOS_RUNTIME_NO_CONTEXT', async () => {
  const sdk = (await import(pathToFileURL(sdkEntry).href)) as {
    currentExecution: () => unknown;
    isStratosError: (value: unknown) => boolean;
  };
  assert.throws(
    () => sdk.currentExecution(),
    (error: {code?: string; message?: string}) => {
      assert.ok(sdk.isStratosError(error));
      assert.equal(error.code, 'STRATOS_RUNTIME_NO_CONTEXT');
      assert.match(error.message ?? '', /currentExecution\(\) was called outside a running workflow/);
      return true;
    },
  );
});

test('a different CLI version relinks the root, updates its recorded SDK version and rebuilds the workflow', async () => {
  const first = await project.cli(['build', 'where', '--json']);
  assert.equal(first.exitCode, 0, first.stdout + first.stderr);
  const rootPackageFile = join(project.projectRoot, 'package.json');
  const link = join(project.projectRoot, 'node_modules', '@stratoscli', 'stratos');
  const recordFile = join(directory, 'dist', '.stratos-build.json');
  const cliVersion = JSON.parse(await readFile(join(packageDirectory, 'package.json'), 'utf8')).version;
  assert.equal(JSON.parse(await readFile(rootPackageFile, 'utf8')).stratos.sdkVersion, cliVersion);

  // Another installed copy of the package, differing only in its version: its own bin and dist (Node resolves
  // modules by real path, so a linked dist would report this checkout's version), the same dependencies.
  const other = join(project.cwd, '..', 'other-stratos');
  await cp(join(packageDirectory, 'bin'), join(other, 'bin'), {recursive: true});
  await cp(join(packageDirectory, 'dist'), join(other, 'dist'), {recursive: true});
  await symlink(join(packageDirectory, 'node_modules'), join(other, 'node_modules'), 'dir');
  const pkg = JSON.parse(await readFile(join(packageDirectory, 'package.json'), 'utf8'));
  const otherVersion = `${cliVersion}-other.1`;
  await writeFile(join(other, 'package.json'), JSON.stringify({...pkg, version: otherVersion}, null, 2));

  const run = await runCli(['run', 'where', '--json'], {
    cwd: project.cwd,
    env: project.env,
    cli: join(other, 'bin', 'stratos.js'),
  });
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  assert.equal(
    await realpath(await readlink(link)),
    await realpath(other),
    'the link now names the other copy',
  );
  assert.equal(
    JSON.parse(await readFile(rootPackageFile, 'utf8')).stratos.sdkVersion,
    otherVersion,
    'the root records the version its link points at',
  );
  assert.equal(
    JSON.parse(await readFile(recordFile, 'utf8')).sdkVersion,
    otherVersion,
    'rebuilt by the other version',
  );
  assert.ok(
    (await realpath(fileURLToPath(run.json.data.output.sdkUrl))).startsWith(await realpath(other)),
    'the workflow loaded the other copy',
  );

  // And back: this checkout's CLI takes the root over again and rebuilds.
  const back = await project.cli(['build', 'where', '--json']);
  assert.equal(back.exitCode, 0, back.stdout + back.stderr);
  assert.equal(back.json.data.workflows[0].status, 'built');
  assert.equal(await realpath(await readlink(link)), await realpath(packageDirectory));
  assert.equal(JSON.parse(await readFile(rootPackageFile, 'utf8')).stratos.sdkVersion, cliVersion);
  assert.equal(JSON.parse(await readFile(recordFile, 'utf8')).sdkVersion, cliVersion);
});
