// `npm run bench`: runs every bench/*.bench.ts in turn, each in its own Node process, and prints its results.
// Not part of `npm test`: benchmarks are slow and their figures depend on the machine.
import {spawnSync} from 'node:child_process';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';

const folder = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((filter) => name.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error(`No bench/*.bench.ts file matches ${only.join(' ')}.`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [join(folder, file)], {stdio: 'inherit'});
  if (result.status !== 0) {
    failed++;
    console.error(`${file} failed (exit ${result.status ?? result.signal}).`);
  }
}
process.exit(failed === 0 ? 0 : 1);
