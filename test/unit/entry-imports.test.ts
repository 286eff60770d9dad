// Importing the authoring entry (`@stratoscli/stratos`, the bundle's dist/bundle/index.js) stays light: it must not load the
// TypeScript compiler, the OpenTelemetry SDK, the CLI, `node:child_process` or the MCP client. A child Node
// process records every module it resolves (a registerHooks resolve hook, which also sees require() and builtins)
// and every builtin it loads (process.moduleLoadList), then imports the entry.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';

// What workflow code gets: the package's own `exports`, resolved by name.
const entry = fileURLToPath(import.meta.resolve('@stratoscli/stratos'));

const recorder = `import {registerHooks} from 'node:module';
import {writeFileSync} from 'node:fs';
const resolved = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    resolved.push({specifier, url: result.url, parent: context.parentURL});
    return result;
  },
});
process.on('exit', () => {
  writeFileSync(process.env.STRATOS_TEST_RECORD, JSON.stringify({resolved, builtins: process.moduleLoadList}));
});
`;

interface Record {
  resolved: {specifier: string; url: string; parent?: string}[];
  builtins: string[];
}

let folder: string;
let record: Record;

before(async () => {
  assert.ok(existsSync(entry), `${entry} is missing: run 'npm run build' first (npm test does).`);
  folder = await mkdtemp(join(tmpdir(), 'stratos-entry-'));
  const hook = join(folder, 'record-modules.mjs');
  const output = join(folder, 'record.json');
  await writeFile(hook, recorder);
  const baseline = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, '-e', ''], {
    env: {...process.env, STRATOS_TEST_RECORD: join(folder, 'baseline.json')},
    encoding: 'utf8',
  });
  assert.equal(baseline.status, 0, baseline.stderr);
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(hook).href,
      '--input-type=module',
      '-e',
      `const sdk = await import(${JSON.stringify(pathToFileURL(entry).href)}); if (typeof sdk.workflow !== 'function') process.exit(3);`,
    ],
    {env: {...process.env, STRATOS_TEST_RECORD: output}, encoding: 'utf8'},
  );
  assert.equal(child.status, 0, child.stderr);
  const {readFile} = await import('node:fs/promises');
  record = JSON.parse(await readFile(output, 'utf8')) as Record;
});

after(() => rm(folder, {recursive: true, force: true}));

test('the recorder sees the entry and its dependencies', () => {
  const urls = record.resolved.map((r) => r.url);
  assert.ok(urls.includes(pathToFileURL(entry).href));
  assert.ok(
    urls.some((url) => url.includes('/node_modules/zod/')),
    'zod is resolved through the hook',
  );
});

const forbiddenPackages = [
  'typescript',
  '@typescript/',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/resources',
  '@opentelemetry/core',
  '@opentelemetry/exporter-',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  'oxc-parser',
];

test('importing the authoring entry loads no compiler, OpenTelemetry SDK or MCP client', () => {
  const loaded = record.resolved.filter(({specifier, url}) =>
    forbiddenPackages.some(
      (name) =>
        specifier === name.replace(/\/$/, '') ||
        specifier.startsWith(name.endsWith('/') || name.endsWith('-') ? name : `${name}/`) ||
        url.includes(`/node_modules/${name}`),
    ),
  );
  assert.deepEqual(loaded, []);
});

test('the package entry is the bundle the CLI loads', () => {
  assert.equal(entry, fileURLToPath(new URL('../../dist/bundle/index.js', import.meta.url)));
});

test('importing the authoring entry loads none of the CLI', () => {
  const cli = pathToFileURL(fileURLToPath(new URL('../../dist/cli/', import.meta.url))).href;
  assert.deepEqual(
    record.resolved.filter(({url}) => url.startsWith(cli)),
    [],
  );
  // A bundle chunk holds many modules: its source map names them.
  const bundle = pathToFileURL(fileURLToPath(new URL('../../dist/bundle/', import.meta.url))).href;
  const chunks = [...new Set(record.resolved.map(({url}) => url).filter((url) => url.startsWith(bundle)))];
  assert.ok(chunks.length > 1, 'the entry loads its chunks');
  const cliSources = chunks.flatMap((url) => {
    const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as {sources: string[]};
    return map.sources.filter((source) => source.includes('/src/cli/')).map((source) => `${url}: ${source}`);
  });
  assert.deepEqual(cliSources, []);
});

test('importing the authoring entry does not load node:child_process', () => {
  const resolved = record.resolved.filter(
    ({specifier, url}) => specifier === 'child_process' || url === 'node:child_process',
  );
  assert.deepEqual(resolved, []);
  // Builtins loaded by Node itself never pass a resolve hook: check the loaded list as well.
  assert.ok(
    !record.builtins.some((name) => /(^|\s)child_process$/.test(name)),
    'node:child_process is in process.moduleLoadList',
  );
});
