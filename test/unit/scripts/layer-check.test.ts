// The layering check over a small source tree of its own: layer violations and cycles are reported with the file
// and line of each import, erased and dynamic imports make no cycle, and the list of tolerated cycles can only
// shrink.
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, relative} from 'node:path';
import {after, test} from 'node:test';
import {checkLayers} from '../../../scripts/layer-check.ts';

const scratch = mkdtempSync(join(tmpdir(), 'stratos-layer-check-'));
after(() => rmSync(scratch, {recursive: true, force: true}));
let trees = 0;

/** Writes a source tree (path under src/ → text) into a fresh folder and returns that folder. */
function writeTree(files: Record<string, string>): string {
  const src = join(scratch, `tree-${++trees}`, 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), {recursive: true});
    writeFileSync(join(src, path), text);
  }
  return src;
}

/** How the check names a file of the tree: relative to the working directory. */
function shown(src: string, path: string): string {
  return relative(process.cwd(), join(src, path));
}

test('an import of a layer the table does not allow is reported with its file and line', () => {
  const src = writeTree({
    'errors/error.ts': "export const a = 1;\nimport {main} from '../cli/main.ts';\n",
    'cli/main.ts': 'export const main = 1;\n',
  });
  const {errors} = checkLayers(src, []);
  assert.ok(
    errors.includes(`${shown(src, 'errors/error.ts')}:2: errors may not import cli (../cli/main.ts)`),
  );
});

test('a cycle of value imports between modules is reported with its full path and each import', () => {
  const src = writeTree({
    'internal/a.ts': "import {b} from './b.ts';\nexport const a = b;\n",
    'internal/b.ts': "// b\nimport {c} from './c.ts';\nexport const b = c;\n",
    'internal/c.ts': "import './a.ts';\nexport const c = 1;\n",
  });
  const {errors} = checkLayers(src, []);
  assert.deepEqual(errors, [
    'module cycle: internal/a.ts -> internal/b.ts -> internal/c.ts -> internal/a.ts',
    `  ${shown(src, 'internal/a.ts')}:1: internal/a.ts imports ./b.ts`,
    `  ${shown(src, 'internal/b.ts')}:2: internal/b.ts imports ./c.ts`,
    `  ${shown(src, 'internal/c.ts')}:1: internal/c.ts imports ./a.ts`,
  ]);
});

test('import type, export type and import() make no cycle; import {type X} still loads its module', () => {
  const erased = writeTree({
    'internal/a.ts':
      "import type {B} from './b.ts';\nexport type A = B;\nexport const load = () => import('./c.ts');\n",
    'internal/b.ts': "import {a} from './a.ts';\nexport type B = string;\nexport const b = a;\n",
    'internal/c.ts': "export type {B} from './b.ts';\nimport {load} from './a.ts';\nexport const c = load;\n",
  });
  assert.deepEqual(checkLayers(erased, []).errors, []);
  const kept = writeTree({
    'internal/a.ts': "import {type B} from './b.ts';\nexport type A = B;\n",
    'internal/b.ts': "import {a} from './a.ts';\nexport type B = string;\nexport const b = a;\n",
  });
  assert.deepEqual(
    checkLayers(kept, []).errors.filter((line) => !line.startsWith('  ')),
    ['module cycle: internal/a.ts -> internal/b.ts -> internal/a.ts'],
  );
});

test('a subfolder that imports values from the folder that imports it is a folder cycle', () => {
  const src = writeTree({
    'telemetry/recorder.ts': "import {write} from './artifacts/writer.ts';\nexport const record = write;\n",
    'telemetry/names.ts': 'export const names = {};\n',
    'telemetry/artifacts/writer.ts': "import {names} from '../names.ts';\nexport const write = names;\n",
  });
  assert.deepEqual(checkLayers(src, []).errors, [
    'folder cycle: telemetry -> telemetry/artifacts -> telemetry',
    `  ${shown(src, 'telemetry/recorder.ts')}:1: telemetry/recorder.ts imports ./artifacts/writer.ts`,
    `  ${shown(src, 'telemetry/artifacts/writer.ts')}:1: telemetry/artifacts/writer.ts imports ../names.ts`,
  ]);
});

test('a listed cycle is a warning with its reason; a listed cycle that is gone is an error', () => {
  const src = writeTree({
    'internal/a.ts': "import {b} from './b.ts';\nexport const a = 1;\n",
    'internal/b.ts': "import {a} from './a.ts';\nexport const b = a;\n",
  });
  const cycle = 'internal/a.ts -> internal/b.ts -> internal/a.ts';
  const gone = 'internal/b.ts -> internal/c.ts -> internal/b.ts';
  const {errors, warnings} = checkLayers(src, [
    {cycle, reason: 'being removed'},
    {cycle: gone, reason: 'being removed'},
  ]);
  assert.equal(warnings[0], `module cycle: ${cycle} (tolerated: being removed)`);
  assert.equal(warnings.length, 3);
  assert.deepEqual(errors, [
    `known cycle no longer exists: ${gone}. Remove it from knownCycles in scripts/layers.ts.`,
  ]);
});
