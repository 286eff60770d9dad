// A workflow's own package.json in real builds: ESM metadata (CommonJS is an error, a missing "type" is added with a
// warning), its dependencies installed by a real npm from a local folder (no network), and the shared-SDK and zod
// rules (shadowing the SDK or declaring another zod major is an error).
import assert from 'node:assert/strict';
import {existsSync, lstatSync} from 'node:fs';
import {readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const usesDepWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import {greet} from 'local-dep';

export default workflow({
  input: z.strictObject({name: z.string().describe('Who to greet')}),
  output: z.object({greeting: z.string().describe('The greeting from local-dep')}),
  run({name}) {
    return {greeting: greet(name)};
  },
});
`;

let project: TempProject;

const workflowWith = (name: string, pkg: unknown, extra: Record<string, string> = {}) =>
  project.writeWorkflow(name, {
    'workflow.yaml': manifest(name),
    'workflow.ts': echoWorkflow,
    'package.json': typeof pkg === 'string' ? pkg : `${JSON.stringify(pkg, null, 2)}\n`,
    ...extra,
  });

async function buildFailure(name: string) {
  const result = await project.cli(['build', name, '--json']);
  assert.equal(result.exitCode, 1, result.stdout);
  return result.json.error;
}

before(async () => {
  project = await createTempProject('stratos-build-package-');
  await project.write(
    'local-dep/package.json',
    JSON.stringify({
      name: 'local-dep',
      version: '1.0.0',
      type: 'module',
      exports: {'.': {types: './index.d.ts', default: './index.js'}},
    }),
  );
  await project.write(
    'local-dep/index.js',
    "export function greet(name) {\n  return 'Hello, ' + name + ', from local-dep';\n}\n",
  );
  await project.write('local-dep/index.d.ts', 'export declare function greet(name: string): string;\n');
});

after(() => project.remove());

test('an explicitly CommonJS package.json is an error at the "type" line, and the file is kept', async () => {
  const text = '{\n  "name": "cjs",\n  "type": "commonjs"\n}\n';
  const directory = await workflowWith('cjs', text);
  const error = await buildFailure('cjs');
  assert.equal(error.code, 'STRATOS_BUILD_COMMONJS_PACKAGE');
  assert.match(error.message, /"type": "commonjs".*change it to "type": "module"/);
  assert.deepEqual(error.location, {file: join(directory, 'package.json'), line: 3, column: 3});
  assert.equal(await readFile(join(directory, 'package.json'), 'utf8'), text);
  assert.ok(!existsSync(join(directory, 'dist')));
});

test('a package.json without "type" gets "type": "module" with a warning; nothing else changes', async () => {
  const directory = await workflowWith('typeless', {name: 'typeless', version: '2.0.0', private: true});
  const result = await project.cli(['build', 'typeless', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.deepEqual(
    result.json.warnings.map((w: {code: string}) => w.code),
    ['STRATOS_BUILD_PACKAGE_TYPE_ADDED'],
  );
  assert.equal(result.json.warnings[0].severity, 'warning');
  const pkg = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'));
  assert.deepEqual(pkg, {name: 'typeless', version: '2.0.0', type: 'module', private: true});
  const again = await project.cli(['build', 'typeless', '--force', '--json']);
  assert.deepEqual(again.json.warnings, [], 'the warning is given once');
});

test('a local folder dependency is installed by npm and its import works', async () => {
  const directory = await project.writeWorkflow('uses-dep', {
    'workflow.yaml': manifest('uses-dep'),
    'workflow.ts': usesDepWorkflow,
    'package.json': JSON.stringify({type: 'module', dependencies: {'local-dep': 'file:../../../local-dep'}}),
  });
  const result = await project.cli(['run', 'uses-dep', '--input', '{"name":"Ada"}', '--json']);
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  assert.deepEqual(result.json.data.output, {greeting: 'Hello, Ada, from local-dep'});
  const installed = join(directory, 'node_modules', 'local-dep');
  assert.ok(
    lstatSync(installed).isSymbolicLink() || existsSync(join(installed, 'package.json')),
    'npm installed it',
  );
  assert.ok(existsSync(join(directory, 'package-lock.json')), 'npm wrote its lock file');
  const stamp = join(directory, 'node_modules', '.stratos-dependencies.json');
  const stamped = (await stat(stamp)).mtimeMs;
  const rebuilt = await project.cli(['build', 'uses-dep', '--force', '--json']);
  assert.equal(rebuilt.exitCode, 0, rebuilt.stdout);
  assert.equal((await stat(stamp)).mtimeMs, stamped, 'unchanged dependencies are not installed again');
});

test('a dependency on @stratoscli/stratos shadows the shared SDK: an error at that key', async () => {
  const text = '{\n  "type": "module",\n  "dependencies": {\n    "@stratoscli/stratos": "^0.1.0"\n  }\n}\n';
  const directory = await workflowWith('shadow-dep', text);
  const error = await buildFailure('shadow-dep');
  assert.equal(error.code, 'STRATOS_BUILD_SDK_SHADOWED');
  assert.match(error.message, /depends on @stratoscli\/stratos.*remove that dependency/);
  assert.deepEqual(error.location, {file: join(directory, 'package.json'), line: 4, column: 5});
  assert.ok(!existsSync(join(directory, 'node_modules')), 'nothing was installed');
});

test('an own node_modules/@stratoscli/stratos shadows the shared SDK even without a package.json', async () => {
  const directory = await project.writeWorkflow('shadow-folder', {
    'workflow.yaml': manifest('shadow-folder'),
    'workflow.ts': echoWorkflow,
    'node_modules/@stratoscli/stratos/package.json': '{"name": "@stratoscli/stratos", "type": "module"}',
  });
  const error = await buildFailure('shadow-folder');
  assert.equal(error.code, 'STRATOS_BUILD_SDK_SHADOWED');
  assert.equal(error.location.file, join(directory, 'node_modules', '@stratoscli', 'stratos'));
});

test('a zod of another major version is an error before anything is installed', async () => {
  const directory = await workflowWith('old-zod', {type: 'module', dependencies: {zod: '^3.23.8'}});
  const error = await buildFailure('old-zod');
  assert.equal(error.code, 'STRATOS_BUILD_ZOD_INCOMPATIBLE');
  assert.match(error.message, /declares zod "\^3\.23\.8", but the Stratos runtime uses zod 4/);
  assert.equal(error.location.file, join(directory, 'package.json'));
  assert.ok(!existsSync(join(directory, 'node_modules')));
});

test('a zod of the same major version is accepted', async () => {
  const directory = await workflowWith('same-zod', {type: 'module', peerDependencies: {zod: '^4.0.0'}});
  const result = await project.cli(['build', 'same-zod', '--json']);
  assert.equal(result.exitCode, 0, result.stdout);
  assert.ok(existsSync(join(directory, 'dist', '.stratos-build.json')));
});
