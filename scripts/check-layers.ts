// Checks the layering rule (scripts/layers.ts, AGENTS.md "The layering rule") over src/: prints each violation
// with the file and line of the import and each cycle with its full path, and exits 1 when there is one. The
// tolerated cycles of `knownCycles` are printed as warnings. It also holds the cached-path list
// (scripts/cached-paths.ts) closed under static imports. `npm test` runs it.
import {resolve} from 'node:path';
import {checkCachedPaths} from './cached-path-check.ts';
import {cachedPathEntries, cachedPathModules} from './cached-paths.ts';
import {checkLayers} from './layer-check.ts';
import {knownCycles} from './layers.ts';

const src = resolve(import.meta.dirname, '..', 'src');
const {errors, warnings} = checkLayers(src, knownCycles);
errors.push(
  ...checkCachedPaths(
    src,
    {entries: cachedPathEntries, modules: cachedPathModules},
    'scripts/cached-paths.ts',
  ),
);
if (warnings.length > 0) console.warn(`Warning: tolerated import cycles:\n${warnings.join('\n')}`);
if (errors.length > 0) {
  console.error(errors.join('\n'));
  process.exit(1);
}
console.log('layering: ok');
