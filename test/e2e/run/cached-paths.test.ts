// What a cached `stratos run` and a no-op `stratos build` load (docs/performance.md): the real CLI with a module
// recorder (a registerHooks load hook, process.moduleLoadList for Node's built-ins, and every node:fs/promises call). Their start-up time is
// mostly module loading, so these counts guard it without timing anything: the bundle's few chunks, no zod for
// the build, and none of the built-ins that only facades or unneeded layers would load.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {explainChunks, explainImportOf} from '../../helpers/explain-cached-load.ts';
import {cleanEnv, cliPath} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const recorder = `import {registerHooks} from 'node:module';
import {writeFileSync} from 'node:fs';
const urls = [];
const promiseCalls = [];
const before = new Set(process.moduleLoadList);
registerHooks({load(url, context, next) { urls.push(url); return next(url, context); }});
const promises = process.getBuiltinModule('node:fs/promises');
for (const [name, fn] of Object.entries(promises)) {
  if (typeof fn === 'function') promises[name] = function (...args) { promiseCalls.push(name + ' ' + args[0]); return fn.apply(this, args); };
}
process.on('exit', () => writeFileSync(process.env.RECORD_FILE, JSON.stringify({
  urls, promiseCalls, builtins: process.moduleLoadList.filter((name) => !before.has(name)),
})));
`;

interface Loaded {
  stratos: string[];
  /** Calls of node:fs/promises functions (each a thread-pool round trip): the cached paths make none. */
  promiseCalls: string[];
  zod: number;
  /** Files of the scale-out engine's packages (DBOS, pg): the local paths load none. */
  engine: string[];
  builtins: string[];
  stdout: string;
}

let project: TempProject;

/** `discardOutput`: stdout and stderr are /dev/null (a character device, but no terminal) instead of pipes. */
function load(args: string[], discardOutput = false): Loaded {
  const hook = join(project.cwd, '..', 'recorder.mjs');
  const record = join(project.cwd, '..', 'record.json');
  writeFileSync(hook, recorder);
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, cliPath, ...args], {
    cwd: project.cwd,
    env: {...cleanEnv(), ...project.env, RECORD_FILE: record},
    encoding: 'utf8',
    stdio: discardOutput ? ['ignore', 'ignore', 'ignore'] : 'pipe',
  });
  assert.equal(result.status, 0, String(result.stderr));
  const {urls, builtins, promiseCalls} = JSON.parse(readFileSync(record, 'utf8')) as {
    urls: string[];
    builtins: string[];
    promiseCalls: string[];
  };
  const files = urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
  return {
    stratos: files.filter((file) => file.startsWith(repo) && !file.includes('/node_modules/')),
    zod: files.filter((file) => file.includes('/node_modules/zod/')).length,
    engine: files.filter((file) => /\/node_modules\/(@dbos-inc|pg|pg-[a-z]+)\//.test(file)),
    builtins: builtins.map((name) => name.replace(/^NativeModule /, '')),
    promiseCalls,
    stdout: result.stdout,
  };
}

before(async () => {
  project = await createTempProject('stratos-cached-paths-');
  await project.writeWorkflow('echo', {'workflow.yaml': manifest('echo'), 'workflow.ts': echoWorkflow});
  const first = await project.cli(['run', 'echo', '--input', '{"text":"hi"}']);
  assert.equal(first.exitCode, 0, first.stderr);
});

after(() => project.remove());

const expectOnlyBundle = (files: string[]) =>
  assert.deepEqual(
    files.filter((file) => !file.startsWith(join(repo, 'dist', 'bundle')) && file !== cliPath),
    [],
    'Stratos loads from dist/bundle/ only',
  );

test('a cached run loads a few bundle chunks and no child_process, worker_threads, perf_hooks or net', () => {
  const run = load(['run', 'echo', '--input', '{"text":"hi"}']);
  assert.deepEqual(JSON.parse(run.stdout), {echo: 'HI'});
  expectOnlyBundle(run.stratos);
  assert.ok(
    run.stratos.length <= 8,
    `Stratos files loaded: ${run.stratos.join(', ')}\n${explainChunks(run.stratos)}`,
  );
  assert.deepEqual(run.promiseCalls, [], 'small files are read and written synchronously');
  // net and the streams: the CLI writes its own output to the descriptor (cli/output/process-output.ts).
  for (const name of ['child_process', 'worker_threads', 'perf_hooks', 'internal/util/diff', 'net', 'stream'])
    assert.ok(
      !run.builtins.includes(name),
      `${name} is loaded: ${explainImportOf(`node:${name}`, ['build', 'entry', 'run'])}`,
    );
});

test('a cached run and a no-op build load nothing of the scale-out engine (DBOS, pg)', () => {
  assert.deepEqual(load(['run', 'echo', '--input', '{"text":"hi"}']).engine, []);
  assert.deepEqual(load(['build', 'echo']).engine, []);
});

test('a no-op build loads a few bundle chunks, no zod and no worker_threads', () => {
  const build = load(['build', 'echo']);
  expectOnlyBundle(build.stratos);
  assert.ok(
    build.stratos.length <= 5,
    `Stratos files loaded: ${build.stratos.join(', ')}\n${explainChunks(build.stratos)}`,
  );
  assert.deepEqual(build.promiseCalls, [], 'small files are read and written synchronously');
  assert.equal(build.zod, 0, `zod is loaded: ${explainImportOf('zod', ['build'])}`);
  for (const name of ['child_process', 'worker_threads', 'perf_hooks', 'stream', 'net'])
    assert.ok(
      !build.builtins.includes(name),
      `${name} is loaded: ${explainImportOf(`node:${name}`, ['build'])}`,
    );
});

test('output sent to /dev/null is not taken for a terminal: no tty, net or streams are loaded', () => {
  const build = load(['build', 'echo'], true);
  for (const name of ['tty', 'net', 'stream'])
    assert.ok(!build.builtins.includes(name), `${name} is not loaded`);
});
