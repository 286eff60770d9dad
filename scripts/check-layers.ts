// Checks the layering rule (scripts/layers.ts, AGENTS.md "The layering rule") over src/: prints each violation
// with the file and line of the import and each cycle with its full path, and exits 1 when there is one. The
// tolerated cycles of `knownCycles` are printed as warnings. `npm test` runs it.
import {resolve} from 'node:path';
import {checkLayers} from './layer-check.ts';
import {knownCycles} from './layers.ts';

const {errors, warnings} = checkLayers(resolve(import.meta.dirname, '..', 'src'), knownCycles);
if (warnings.length > 0) console.warn(`Warning: tolerated import cycles:\n${warnings.join('\n')}`);
if (errors.length > 0) {
  console.error(errors.join('\n'));
  process.exit(1);
}
console.log('layering: ok');
