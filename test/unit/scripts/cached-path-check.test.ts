// The cached-path list (scripts/cached-paths.ts) and its check: the real list is closed over src/, and over a small
// source tree of its own the check names the import that leaves the list, the module nothing on it imports and
// the module that no longer exists.
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, relative, resolve} from 'node:path';
import {after, test} from 'node:test';
import {checkCachedPaths} from '../../../scripts/cached-path-check.ts';
import {cachedPathEntries, cachedPathModules} from '../../../scripts/cached-paths.ts';

const scratch = mkdtempSync(join(tmpdir(), 'stratos-cached-path-check-'));
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

test('the declared cached paths hold every module their modules import statically', () => {
  const src = resolve(import.meta.dirname, '..', '..', '..', 'src');
  const list = {entries: cachedPathEntries, modules: cachedPathModules};
  assert.deepEqual(checkCachedPaths(src, list, 'scripts/cached-paths.ts'), []);
});

test('a static import of a module the list does not hold on that path names the importer, its line and the fix', () => {
  const src = writeTree({
    'cli/run-cli.ts':
      "import {hash} from '../internal/hash.ts';\nimport type {T} from '../internal/types.ts';\n",
    'internal/hash.ts': "export const hash = 1;\nimport {heavy} from './heavy.ts';\n",
    'internal/heavy.ts': 'export const heavy = 1;\n',
    'internal/types.ts': 'export type T = 1;\n',
  });
  const list = {
    entries: ['cli/run-cli.ts'],
    modules: {'cli/run-cli.ts': ['build', 'run'], 'internal/hash.ts': ['build', 'run']} as const,
  };
  assert.deepEqual(checkCachedPaths(src, list, 'list.ts'), [
    `${relative(process.cwd(), join(src, 'internal/hash.ts'))}:2: internal/hash.ts is on the cached build and run ` +
      "paths and imports internal/heavy.ts statically ('./heavy.ts'), which list.ts does not list on them. Load it " +
      "with import() where it is used, or list it on the paths that need it: 'internal/heavy.ts': ['build', 'run'],",
  ]);
});

test('a module on fewer paths than its importer, or dynamically imported, is judged path by path', () => {
  const src = writeTree({
    'index.ts': "import {a} from './internal/a.ts';\nconst later = () => import('./internal/late.ts');\n",
    'internal/a.ts': 'export const a = 1;\n',
    'internal/late.ts': 'export const late = 1;\n',
  });
  const list = {
    entries: ['index.ts'],
    modules: {'index.ts': ['entry', 'run'], 'internal/a.ts': ['entry'], 'internal/late.ts': ['run']} as const,
  };
  const errors = checkCachedPaths(src, list, 'list.ts');
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0]!, /index\.ts:1: index\.ts is on the cached run path and imports internal\/a\.ts/);
  assert.match(errors[0]!, /'internal\/a\.ts': \['entry', 'run'\],$/);
});

test('a listed module that nothing on the paths imports, or that does not exist, is named for removal', () => {
  const src = writeTree({'index.ts': 'export const a = 1;\n', 'internal/unused.ts': 'export const b = 1;\n'});
  const list = {
    entries: ['index.ts'],
    modules: {'index.ts': ['entry'], 'internal/unused.ts': ['entry'], 'internal/gone.ts': ['entry']} as const,
  };
  assert.deepEqual(checkCachedPaths(src, list, 'list.ts'), [
    'list.ts: internal/gone.ts is on the cached paths but does not exist under src/; remove it.',
    'list.ts: internal/unused.ts is on the cached paths but no module on them imports it; remove it from the list.',
  ]);
});
